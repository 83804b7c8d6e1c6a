// The adapter of the statement routes (link.upload, items.statements.upload): the file importer.
import { FILE_IMPORT_CONNECTOR_ID } from '../../core/connectors';
import { createFileImportConnector } from '../file_import';
import type { AdapterSet } from '../registry';

export const FILE_ADAPTERS: AdapterSet = new Map([[FILE_IMPORT_CONNECTOR_ID, createFileImportConnector]]);
