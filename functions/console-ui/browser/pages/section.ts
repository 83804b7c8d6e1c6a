// What every section page of an application gets from the application page around it.
import type { ApplicationView, ConsoleRole, Environment } from '../types';

export interface SectionProps {
  org: string;
  app: ApplicationView;
  env: Environment;
  /** The member's role in the organisation (null when not a member: the page is not shown then). */
  role: ConsoleRole | null;
  /** The query of the page's fragment (#/...?request_id=...), for searches that can be linked to. */
  params: URLSearchParams;
}
