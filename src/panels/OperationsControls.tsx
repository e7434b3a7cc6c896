// Operating the cluster from the Controls tab, one form a file in ./operations: adding a broker,
// balanced plans and partition reassignments (kafka-reassign-partitions --generate / --execute),
// leadership skew and preferred leader election (kafka-leader-election), how far a config change
// has propagated, and ACLs (kafka-acls).
import { AclSection } from './operations/AclSection';
import { AddBrokerForm } from './operations/AddBrokerForm';
import { BalancedPlanForm } from './operations/BalancedPlanForm';
import { ConfigPropagation } from './operations/ConfigPropagation';
import { LeadershipSection } from './operations/LeadershipSection';
import { ReassignForm } from './operations/ReassignForm';

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
