// POST /v1/items/statements/upload: another statement file for an import item.
import { uploadStatement } from '../app/statement-import';
import { defineOperation } from '../platform/operation';

export const handler = defineOperation('items.statements.upload', ({ deps, item, body }) => uploadStatement(deps, item, body));
