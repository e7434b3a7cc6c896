// Who the clients are and what the ACLs allow, as the World keeps it (broker/acl.ts is the authorizer).

import type { AclBinding, SecurityProtocol } from './types';

export interface SecurityState {
  acls: AclBinding[];
  /** Client id → authenticated principal. */
  principals: Record<string, string>;
  listener: SecurityProtocol;
  clientProtocols: Record<string, SecurityProtocol>;
}
