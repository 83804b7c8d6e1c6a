// POST /v1/items/statements/upload: another statement file for an import item.
import { uploadStatement } from '../app/statement-import';
import { itemsStatementsUpload } from '../contracts/routes';
import { defineOperation } from '../platform/operation';

export const handler = defineOperation(itemsStatementsUpload, ({ deps, item, body }) => uploadStatement(deps, item, body));
