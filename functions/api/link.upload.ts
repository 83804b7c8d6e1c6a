// POST /link/api/upload: a statement file (base64) -> a connected item holding the file's data.
import { linkCallerOf, uploadStatement } from '../app/link';
import { linkUpload } from '../contracts/routes';
import { defineOperation } from '../platform/operation';

export const handler = defineOperation(linkUpload, ({ deps, body, event }) => uploadStatement(deps, body, linkCallerOf(event)));
