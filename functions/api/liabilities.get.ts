// POST /v1/liabilities/get: credit cards, mortgages, student and auto loans.
import { liabilitiesOf } from '../app/products';
import { defineOperation } from '../platform/operation';

export const handler = defineOperation('liabilities.get', ({ deps, item }) => liabilitiesOf(deps, item));
