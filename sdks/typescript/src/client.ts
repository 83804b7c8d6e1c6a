// The client: one object with the nine method groups (client.items.get, client.transactions.sync, ...).
import { MethodGroups } from './generated/groups.js';
import { Transport, type ClientOptions } from './transport.js';

export class Fincore extends MethodGroups {
  constructor(options: ClientOptions) {
    super(new Transport(options));
  }
}
