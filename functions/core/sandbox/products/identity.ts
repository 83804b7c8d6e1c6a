// Identity of a sandbox login: owners derived from a hash of the login, in the region's formats
// (names, addresses, phone numbers, e-mail); the primary owner holds every account.
import type { z } from 'zod';
import type { Identity as IdentitySchema, Owner as OwnerSchema } from '../../../contracts/product-schemas';
import { findInstitution } from '../../institutions';
import type { SandboxItemData, SandboxLogin } from '../generator';
import type { RegionCode } from '../pools';
import { Rng } from '../random';
import { regionOfLogin, seedOf } from './shared';

export type Identity = z.infer<typeof IdentitySchema>;
export type Owner = z.infer<typeof OwnerSchema>;

interface City {
  city: string;
  region: string | null;
  postal: (r: Rng) => string;
  /** Fictional landline prefix (a range set aside for drama / examples where the country has one). */
  landline: (r: Rng) => string;
}

interface IdentityPool {
  first: string[];
  last: string[];
  streets: string[];
  /** Street line from a number and a street name. */
  line: (n: number, street: string, r: Rng) => string;
  cities: City[];
  mobile: (r: Rng) => string;
  companySuffix: string;
}

const L = 'ABCDEFGHJKLMNPRSTUVWXYZ';
const letter = (r: Rng) => L[Math.floor(r.next() * L.length)];

const usCity = (city: string, region: string, zip3: string, area: string): City => ({
  city,
  region,
  postal: (r) => `${zip3}${r.anyDigits(2)}`,
  landline: (r) => `+1 ${area}-555-01${r.anyDigits(2)}`,
});
const caCity = (city: string, region: string, fsa: string, area: string): City => ({
  city,
  region,
  postal: (r) => `${fsa}${r.int(1, 9)} ${r.int(1, 9)}${letter(r)}${r.int(1, 9)}`,
  landline: (r) => `+1 ${area}-555-01${r.anyDigits(2)}`,
});
const gbCity = (city: string, dialling: string, pc: string): City => ({
  city,
  region: null,
  postal: (r) => `${pc}${r.int(1, 20)} ${r.int(1, 9)}${letter(r)}${letter(r)}`,
  landline: (r) => `+44 ${dialling}${r.anyDigits(3)}`,
});
const deCity = (city: string, region: string, plz: string, area: string): City => ({
  city,
  region,
  postal: (r) => `${plz}${r.anyDigits(5 - plz.length)}`,
  landline: (r) => `+49 ${area} ${r.anyDigits(7)}`,
});
const frCity = (city: string, region: string, cp: string, area: string): City => ({
  city,
  region,
  postal: (r) => `${cp}${String(r.int(1, 20)).padStart(5 - cp.length, '0')}`,
  landline: (r) => `+33 ${area} 99 00 ${r.anyDigits(2)} ${r.anyDigits(2)}`,
});

const US_IDENTITY: IdentityPool = {
  first: ['Maria', 'James', 'Aisha', 'Daniel', 'Priya', 'Michael', 'Sofia', 'Kevin', 'Grace', 'Luis', 'Hannah', 'Omar', 'Emily', 'Marcus'],
  last: ['Garcia', 'Johnson', 'Nguyen', 'Patel', 'Kim', 'Williams', 'Okafor', 'Rossi', 'Cohen', 'Martinez', 'Chen', 'Brooks', 'Reyes', 'Walker'],
  streets: ['Maple Ave', 'Pine St', 'Oak Dr', 'Lakeview Blvd', 'Cedar Ln', 'Elm St', 'Harbor Way', 'Sunset Blvd', 'Willow Ct', 'Main St'],
  line: (n, street, r) => `${n} ${street}${r.chance(0.35) ? ` Apt ${r.int(1, 30)}${letter(r)}` : ''}`,
  cities: [
    usCity('Seattle', 'WA', '981', '206'),
    usCity('Austin', 'TX', '787', '512'),
    usCity('Denver', 'CO', '802', '303'),
    usCity('Chicago', 'IL', '606', '312'),
    usCity('Boston', 'MA', '021', '617'),
    usCity('Atlanta', 'GA', '303', '404'),
    usCity('Portland', 'OR', '972', '503'),
  ],
  mobile: (r) => `+1 ${r.pick(['206', '312', '415', '646', '720'])}-555-01${r.anyDigits(2)}`,
  companySuffix: 'LLC',
};

const IDENTITY_POOLS: Record<RegionCode, IdentityPool> = {
  US: US_IDENTITY,
  CA: {
    ...US_IDENTITY,
    first: ['Olivia', 'Liam', 'Chloé', 'Noah', 'Amélie', 'Ethan', 'Harpreet', 'Lucas', 'Mei', 'Jacob'],
    last: ['Tremblay', 'Roy', 'Singh', 'MacDonald', 'Gagnon', 'Wong', 'Campbell', 'Bouchard', 'Lee', 'Martin'],
    cities: [
      caCity('Toronto', 'ON', 'M5V', '416'),
      caCity('Vancouver', 'BC', 'V6B', '604'),
      caCity('Montréal', 'QC', 'H2X', '514'),
      caCity('Calgary', 'AB', 'T2P', '403'),
    ],
    mobile: (r) => `+1 ${r.pick(['416', '604', '514'])}-555-01${r.anyDigits(2)}`,
    companySuffix: 'Inc.',
  },
  GB: {
    first: ['Oliver', 'Amelia', 'Harry', 'Isla', 'George', 'Priya', 'Jack', 'Sophie', 'Mohammed', 'Emily'],
    last: ['Smith', 'Jones', 'Taylor', 'Brown', 'Evans', 'Khan', 'Wilson', 'Davies', 'Hughes', "O'Brien"],
    streets: ['High Street', 'Church Road', 'Victoria Road', 'Park Lane', 'Station Road', 'Mill Lane', 'Queens Road'],
    line: (n, street, r) => (r.chance(0.3) ? `Flat ${r.int(1, 12)}, ${n} ${street}` : `${n} ${street}`),
    cities: [
      gbCity('London', '20 7946 0', 'SE'),
      gbCity('Manchester', '161 496 0', 'M'),
      gbCity('Bristol', '117 496 0', 'BS'),
      gbCity('Leeds', '113 496 0', 'LS'),
      gbCity('Edinburgh', '131 496 0', 'EH'),
    ],
    mobile: (r) => `+44 7700 900${r.anyDigits(3)}`,
    companySuffix: 'Ltd',
  },
  DE: {
    first: ['Lukas', 'Anna', 'Felix', 'Lea', 'Jonas', 'Mia', 'Elif', 'Paul', 'Sophie', 'Maximilian'],
    last: ['Müller', 'Schmidt', 'Schneider', 'Fischer', 'Weber', 'Wagner', 'Becker', 'Yilmaz', 'Hoffmann', 'Koch'],
    streets: ['Hauptstraße', 'Lindenweg', 'Bahnhofstraße', 'Gartenstraße', 'Schillerstraße', 'Bergstraße'],
    line: (n, street) => `${street} ${n}`,
    cities: [
      deCity('Berlin', 'Berlin', '10', '30'),
      deCity('Hamburg', 'Hamburg', '20', '40'),
      deCity('München', 'Bayern', '80', '89'),
      deCity('Köln', 'Nordrhein-Westfalen', '50', '221'),
      deCity('Frankfurt am Main', 'Hessen', '60', '69'),
    ],
    mobile: (r) => `+49 151 ${r.anyDigits(8)}`,
    companySuffix: 'GmbH',
  },
  FR: {
    first: ['Camille', 'Louis', 'Léa', 'Hugo', 'Chloé', 'Gabriel', 'Inès', 'Arthur', 'Manon', 'Yanis'],
    last: ['Martin', 'Bernard', 'Dubois', 'Thomas', 'Robert', 'Petit', 'Durand', 'Leroy', 'Moreau', 'Benali'],
    streets: ['rue de la République', 'avenue Victor Hugo', 'rue du Moulin', 'boulevard Voltaire', 'rue des Lilas', 'place de la Mairie'],
    line: (n, street) => `${n} ${street}`,
    cities: [
      frCity('Paris', 'Île-de-France', '750', '1'),
      frCity('Lyon', 'Auvergne-Rhône-Alpes', '690', '4'),
      frCity('Marseille', "Provence-Alpes-Côte d'Azur", '130', '4'),
      frCity('Bordeaux', 'Nouvelle-Aquitaine', '330', '5'),
      frCity('Lille', 'Hauts-de-France', '590', '3'),
    ],
    mobile: (r) => `+33 6 39 98 ${r.anyDigits(2)} ${r.anyDigits(2)}`,
    companySuffix: 'SARL',
  },
};

const BUSINESS_WORDS = ['Northwind', 'Bluebird', 'Summit', 'Harborline', 'Evergreen', 'Brightpath', 'Copperleaf', 'Keystone'];
const BUSINESS_KINDS = ['Design', 'Consulting', 'Studio', 'Logistics', 'Labs', 'Trading'];

const ascii = (s: string) =>
  s
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^A-Za-z]/g, '')
    .toLowerCase();

/**
 * Account owners for a sandbox login. The primary owner holds every account; some logins with a
 * savings account have a joint owner on it. A business login's primary owner carries the business
 * name beside the person's. Degraded items are answered by the caller with `{ owners: [] }`.
 */
export function sandboxIdentity(login: SandboxLogin, data: SandboxItemData): Identity {
  const seed = seedOf(login);
  const region = regionOfLogin(login);
  const pool = IDENTITY_POOLS[region];
  const country = region;
  const r = new Rng(`${seed}|identity`);
  const isBusiness = findInstitution(login.institutionId)?.type === 'business';

  const first = r.pick(pool.first);
  const last = r.pick(pool.last);
  const city = r.pick(pool.cities);
  const street = pool.line(r.int(2, 2999), r.pick(pool.streets), r);
  const address = { street, city: city.city, region: city.region, postal_code: city.postal(r), country };
  const handle = `${ascii(first)}.${ascii(last)}${r.chance(0.5) ? r.int(1, 99) : ''}`;

  const names = [`${first} ${last}`];
  if (r.chance(0.3)) names.push(`${first} ${letter(r)}. ${last}`);
  const emails: Owner['emails'] = [{ data: `${handle}@example.com`, primary: true, type: 'personal' }];
  const phones: Owner['phone_numbers'] = [{ data: pool.mobile(r), primary: true, type: 'mobile' }];
  const addresses: Owner['addresses'] = [{ data: address, primary: true }];

  if (isBusiness) {
    const company = `${r.pick(BUSINESS_WORDS)} ${r.pick(BUSINESS_KINDS)} ${pool.companySuffix}`;
    names.unshift(company);
    const domain = `${ascii(company.split(' ')[0])}.example.com`;
    emails.unshift({ data: `accounts@${domain}`, primary: false, type: 'work' });
    emails.push({ data: `${ascii(first)}@${domain}`, primary: false, type: 'work' });
    phones.push({ data: city.landline(r), primary: false, type: 'work' });
  } else {
    if (r.chance(0.5)) emails.push({ data: `${ascii(first)[0]}${ascii(last)}@work.example.com`, primary: false, type: 'work' });
    if (r.chance(0.5)) phones.push({ data: city.landline(r), primary: false, type: 'home' });
    if (r.chance(0.35)) {
      const old = r.pick(pool.cities);
      addresses.push({
        data: { street: pool.line(r.int(2, 2999), r.pick(pool.streets), r), city: old.city, region: old.region, postal_code: old.postal(r), country },
        primary: false,
      });
    }
  }

  const owners: Owner[] = [
    { names, emails, phone_numbers: phones, addresses, account_ids: data.accounts.map((a) => a.account_id) },
  ];

  const savings = data.accounts.find((a) => a.type === 'depository' && a.subtype === 'savings');
  if (savings && !isBusiness && r.chance(0.4)) {
    const jointFirst = r.pick(pool.first.filter((f) => f !== first));
    const jointLast = r.chance(0.6) ? last : r.pick(pool.last);
    owners.push({
      names: [`${jointFirst} ${jointLast}`],
      emails: [{ data: `${ascii(jointFirst)}.${ascii(jointLast)}@example.net`, primary: true, type: 'personal' }],
      phone_numbers: [{ data: pool.mobile(r), primary: true, type: 'mobile' }],
      addresses: [{ data: { ...address }, primary: true }],
      account_ids: [savings.account_id],
    });
  }
  return { owners };
}
