// Institution-reported data products for sandbox logins: identity, liabilities and investments
// (holdings, securities, investment transactions), one module each. Pure and deterministic like
// the generator: no I/O, no clock, no Math.random. Everything derives from the login, the
// generator's output for that login and `today`, so each product agrees with the accounts and
// transactions the item already shows (docs/products.md).
export { sandboxIdentity, type Identity, type Owner } from './identity';
export { sandboxLiabilities, type Liabilities } from './liabilities';
export { sandboxInvestments, type Holding, type InvestmentTransaction, type SandboxInvestments, type Security } from './investments';
