// Authentication and authorization: which principal a client's connection is, and whether the
// ACLs let it act on a topic or group (kafka-acls, StandardAuthorizer in apache/kafka
// metadata/.../authorizer/StandardAuthorizerData.java: DENY wins over ALLOW, Read and Write imply Describe).
// Simplifications (docs/scenario.md, "security"): ACLs are enforced only once at least one exists
// (as if allow.everyone.if.no.acl.found=true until then); they take effect at once, where Kafka
// writes AccessControlEntryRecords to the metadata log; there are no super.users.

import type { SecurityState } from '../model/security';
import type { World } from '../model/world';
import type { AclBinding, AclOperation } from '../model/types';
import type { SecurityView } from '../model/views';
import { dictionaryOf, own } from '../model/userText';

export type { SecurityState } from '../model/security';

export const ANONYMOUS = 'User:ANONYMOUS';

export function newSecurityState(init?: Partial<SecurityState>): SecurityState {
  return {
    acls: (init?.acls ?? []).map(normalizeAcl),
    principals: dictionaryOf(init?.principals),
    listener: init?.listener ?? 'PLAINTEXT',
    clientProtocols: dictionaryOf(init?.clientProtocols),
  };
}

function normalizeAcl(a: AclBinding): AclBinding {
  return {
    principal: a.principal,
    operation: a.operation,
    resourceType: a.resourceType,
    resourceName: a.resourceName,
    patternType: a.patternType ?? 'literal',
    permission: a.permission,
  };
}

function sameAcl(a: AclBinding, b: AclBinding): boolean {
  const x = normalizeAcl(a);
  const y = normalizeAcl(b);
  return (
    x.principal === y.principal &&
    x.operation === y.operation &&
    x.resourceType === y.resourceType &&
    x.resourceName === y.resourceName &&
    x.patternType === y.patternType &&
    x.permission === y.permission
  );
}

/** kafka-acls --add; returns false when the same binding already exists. */
export function addAcl(w: World, acl: AclBinding): boolean {
  if (w.security.acls.some((a) => sameAcl(a, acl))) return false;
  w.security.acls.push(normalizeAcl(acl));
  return true;
}

/** kafka-acls --remove; returns false when no such binding exists. */
export function removeAcl(w: World, acl: AclBinding): boolean {
  const before = w.security.acls.length;
  w.security.acls = w.security.acls.filter((a) => !sameAcl(a, acl));
  return w.security.acls.length < before;
}

/**
 * The principal a client authenticated as: the scenario's security.principals, else a `principal`
 * in the client's config (producers and consumers), else User:ANONYMOUS.
 */
export function principalOf(w: World, clientId: string): string {
  const p = own(w.security.principals, clientId);
  if (p) return p;
  const fromConfig = (w.producers.get(clientId) ?? w.consumers.get(clientId))?.config['principal'];
  return typeof fromConfig === 'string' && fromConfig ? fromConfig : ANONYMOUS;
}

function operationMatches(rule: AclOperation, wanted: AclOperation): boolean {
  if (rule === 'All' || rule === wanted) return true;
  // Describe is implied by Read and Write (AclEntry.supportedOperations / StandardAuthorizerData).
  return wanted === 'Describe' && (rule === 'Read' || rule === 'Write');
}

function resourceMatches(acl: AclBinding, resourceType: 'topic' | 'group', name: string): boolean {
  if (acl.resourceType !== resourceType) return false;
  if ((acl.patternType ?? 'literal') === 'prefixed') return name.startsWith(acl.resourceName);
  return acl.resourceName === '*' || acl.resourceName === name;
}

/**
 * Whether `principal` may do `operation` on the resource. With no ACL at all everything is allowed;
 * otherwise a matching DENY refuses, a matching ALLOW permits, and no match refuses.
 */
export function authorize(
  w: World,
  principal: string,
  operation: AclOperation,
  resourceType: 'topic' | 'group',
  resourceName: string,
): boolean {
  const acls = w.security.acls;
  if (acls.length === 0) return true;
  let allowed = false;
  for (const a of acls) {
    if (a.principal !== principal && a.principal !== 'User:*') continue;
    if (!operationMatches(a.operation, operation) || !resourceMatches(a, resourceType, resourceName))
      continue;
    if (a.permission === 'deny') return false;
    allowed = true;
  }
  return allowed;
}

/**
 * For the client code (producers, consumers): null when `clientId` may act, else Kafka's error
 * name, TOPIC_AUTHORIZATION_FAILED or GROUP_AUTHORIZATION_FAILED.
 */
export function authorizationError(
  w: World,
  clientId: string,
  operation: AclOperation,
  resourceType: 'topic' | 'group',
  resourceName: string,
): string | null {
  // No ACL at all: every request is allowed (checked first: this is on every client request's path).
  if (w.security.acls.length === 0) return null;
  if (authorize(w, principalOf(w, clientId), operation, resourceType, resourceName)) return null;
  return resourceType === 'topic' ? 'TOPIC_AUTHORIZATION_FAILED' : 'GROUP_AUTHORIZATION_FAILED';
}

export function securityView(w: World): SecurityView {
  const clients = new Set<string>([
    ...w.producers.keys(),
    ...w.consumers.keys(),
    ...Object.keys(w.security.principals),
    ...Object.keys(w.security.clientProtocols),
  ]);
  return {
    enforced: w.security.acls.length > 0,
    acls: w.security.acls.map((a) => ({ ...a })),
    listener: w.security.listener,
    clients: [...clients].sort().map((clientId) => ({
      clientId,
      principal: principalOf(w, clientId),
      protocol: own(w.security.clientProtocols, clientId) ?? w.security.listener,
    })),
  };
}
