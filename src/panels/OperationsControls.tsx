// Operating the cluster from the Controls tab, one form a file: adding a broker,
// balanced plans and partition reassignments (kafka-reassign-partitions --generate / --execute),
// leadership skew and preferred leader election (kafka-leader-election), how far a config change
// has propagated, and ACLs (kafka-acls).
import { AclSection } from './AclSection';
import { AddBrokerForm } from './AddBrokerForm';
import { BalancedPlanForm } from './BalancedPlanForm';
import { ConfigPropagation } from './ConfigPropagation';
import { LeadershipSection } from './LeadershipSection';
import { ReassignForm } from './ReassignForm';

export function OperationsControls() {
  return (
    <>
      <AddBrokerForm />
      <BalancedPlanForm />
      <ReassignForm />
      <LeadershipSection />
      <ConfigPropagation />
      <AclSection />
    </>
  );
}
