// Institutions in Plaid's shape, and /institutions/search and /institutions/get_by_id over ours.
//
// Field by field: institution_id, name, country_codes and oauth are ours; `products` are ours under
// Plaid's names (./products.ts). `url` and `primary_color` are returned when
// `options.include_optional_metadata` asks for them, as Plaid does; `logo` is null (Plaid's is a
// base64 PNG; the only marks we ship are sandbox SVGs). `routing_numbers` is empty (not in our
// catalog). `status`, `auth_metadata` and `payment_initiation_metadata` are null (not tracked). Institution ids are ours (`ins_chase`,
// `ins_sandbox_first_bank`), not Plaid's numeric ones.
import type { Institution as PlaidInstitution, InstitutionsGetByIdResponse, InstitutionsSearchResponse } from 'plaid';
import * as z from 'zod';
import { ApiError } from '../../contracts/errors';
import type { ResponseOf } from '../../contracts/routes';
import { handler as institutionsGetByIdHandler } from '../../api/institutions.get_by_id';
import { handler as institutionsSearchHandler } from '../../api/institutions.search';
import { invokeRoute, type InlineCall } from '../../platform/operation';
import { plaidProductsOf, servedProductsOf } from './products';
import { parsePlaidRequest } from './requests';
import { plaidRequest, type Wire } from './wire';

type OurInstitution = ResponseOf<'institutions.get_by_id'>['institution'];

export function plaidInstitutionOf(institution: OurInstitution, includeOptionalMetadata: boolean): Wire<PlaidInstitution> {
  return {
    institution_id: institution.institution_id,
    name: institution.name,
    products: plaidProductsOf(institution.products),
    country_codes: institution.country_codes as Wire<PlaidInstitution>['country_codes'],
    url: includeOptionalMetadata ? institution.url : null,
    primary_color: includeOptionalMetadata ? institution.primary_color : null,
    logo: null,
    routing_numbers: [],
    oauth: institution.oauth,
    status: null,
    payment_initiation_metadata: null,
    auth_metadata: null,
  };
}

const CountryCodes = z.array(z.string());

const SearchRequest = plaidRequest(
  {
    query: z.string(),
    products: z.array(z.string()).nullable().optional(),
    country_codes: CountryCodes,
    options: z
      .strictObject({
        oauth: z.boolean().nullable().optional(),
        include_optional_metadata: z.boolean().optional(),
        include_auth_metadata: z.boolean().nullable().optional(),
        include_payment_initiation_metadata: z.boolean().nullable().optional(),
        payment_initiation: z.unknown().optional(),
      })
      .optional(),
  },
  ['user_token', 'user_id'],
);

const GetByIdRequest = plaidRequest({
  institution_id: z.string(),
  country_codes: CountryCodes,
  options: z
    .strictObject({
      include_optional_metadata: z.boolean().optional(),
      include_status: z.boolean().optional(),
      include_auth_metadata: z.boolean().optional(),
      include_payment_initiation_metadata: z.boolean().optional(),
    })
    .optional(),
});

/** POST /institutions/search: ours, then Plaid's product and OAuth filters (our route has neither). */
export async function institutionsSearch(call: InlineCall, body: unknown): Promise<Omit<Wire<InstitutionsSearchResponse>, 'request_id'>> {
  const request = parsePlaidRequest(SearchRequest, body);
  const wanted = request.products ? servedProductsOf(request.products) : [];
  // A product no institution here serves (auth, transfer, ...) matches none.
  if (wanted === null) return { institutions: [] };
  const answer = (await invokeRoute(institutionsSearchHandler, call, {
    query: request.query,
    ...(request.country_codes.length > 0 ? { country_codes: request.country_codes } : {}),
  })) as ResponseOf<'institutions.search'>;
  const oauth = request.options?.oauth;
  const matching = answer.institutions.filter(
    (institution) => wanted.every((p) => institution.products.includes(p)) && (oauth === undefined || oauth === null || institution.oauth === oauth),
  );
  return { institutions: matching.map((institution) => plaidInstitutionOf(institution, request.options?.include_optional_metadata === true)) };
}

/** POST /institutions/get_by_id: an institution outside the requested countries is not found, as on Plaid. */
export async function institutionsGetById(call: InlineCall, body: unknown): Promise<Omit<Wire<InstitutionsGetByIdResponse>, 'request_id'>> {
  const request = parsePlaidRequest(GetByIdRequest, body);
  const { institution } = (await invokeRoute(institutionsGetByIdHandler, call, { institution_id: request.institution_id })) as ResponseOf<
    'institutions.get_by_id'
  >;
  if (request.country_codes.length > 0 && !institution.country_codes.some((c) => request.country_codes.includes(c))) {
    throw new ApiError('institution_not_found', `The institution ${request.institution_id} does not serve any of ${request.country_codes.join(', ')}.`);
  }
  return { institution: plaidInstitutionOf(institution, request.options?.include_optional_metadata === true) };
}
