// POST /v1/sandbox/item/reset_login: puts the item into login_required and fires item.error.
import { resetLogin } from '../app/item-state';
import { sandboxItemResetLogin } from '../contracts/routes';
import { defineOperation } from '../platform/operation';

export const handler = defineOperation(sandboxItemResetLogin, ({ deps, item }) => resetLogin(deps, item));
