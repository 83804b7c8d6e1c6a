// POST /link/api/upload: a statement file (base64) -> a connected item holding the file's data.
import { uploadStatement } from '../app/link-upload';
import { linkCallerOf } from '../app/link-session';
import { linkUpload } from '../contracts/routes';
import { defineOperation } from '../platform/operation';

export const handler = defineOperation(linkUpload, ({ deps, body, event }) => uploadStatement(deps, body, linkCallerOf(event)));
