// The Controls tab: network faults, the console producer, continuous clients, a transactional
// producer and a stream processor, admin requests
// and operations (reassignments, leadership, config propagation, ACLs).
// Crash, restart and controlled shutdown of a node are in the Inspector of that node.
import { ConsumerControls, ProducerControls } from './ClientControls';
import { NetworkControls } from './NetworkControls';
import { OperationsControls } from './OperationsControls';
import { ProcessorControls } from './ProcessorControls';
import { ProduceForm } from './ProduceForm';
import { TransactionalProducerControls } from './TransactionControls';
import { AlterConfigForm, CreateTopicForm } from './TopicForms';

export function ControlsPanel() {
  return (
    <div className="controls-panel">
      <h2>Controls</h2>
      <p className="hint">
        To crash, restart or shut down a node, select it on the canvas or in the Inspector tab.
      </p>
      <ProduceForm />
      <NetworkControls />
      <ProducerControls />
      <TransactionalProducerControls />
      <ConsumerControls />
      <ProcessorControls />
      <CreateTopicForm />
      <AlterConfigForm />
      <OperationsControls />
    </div>
  );
}
