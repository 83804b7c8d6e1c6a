// POST /v1/liabilities/get: credit cards, mortgages, student and auto loans.
import { liabilitiesOf } from '../app/products';
import { liabilitiesGet } from '../contracts/routes';
import { defineOperation } from '../platform/operation';

export const handler = defineOperation(liabilitiesGet, ({ deps, item }) => liabilitiesOf(deps, item));
