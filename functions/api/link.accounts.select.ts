// POST /link/api/accounts/select: the accounts the user chose after a select_accounts step -> connected.
import { submitAccountSelection } from '../app/link-selection';
import { linkCallerOf } from '../app/link-session';
import { linkAccountsSelect } from '../contracts/routes';
import { defineOperation } from '../platform/operation';

export const handler = defineOperation(linkAccountsSelect, ({ deps, body, event }) => submitAccountSelection(deps, body, linkCallerOf(event)));
