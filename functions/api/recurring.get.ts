// POST /v1/recurring/get: subscriptions, bills and payroll detected from transaction history.
import { recurringOf } from '../app/derived-products';
import { recurringGet } from '../contracts/routes';
import { defineOperation } from '../platform/operation';

export const handler = defineOperation(recurringGet, ({ deps, item }) => recurringOf(deps, item));
