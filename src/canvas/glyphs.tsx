// Replica glyphs: each state has its own shape AND colour, so colour is never the only signal.
import { memo } from 'react';
import type { ReplicaRole } from '../store/canvas';

const SIZE = 14;

export const ReplicaGlyph = memo(function ReplicaGlyph({ role }: { role: ReplicaRole }) {
  return (
    <svg className={`glyph glyph--${role}`} width={SIZE} height={SIZE} viewBox="0 0 14 14" aria-hidden="true">
      {role === 'leader' && (
        <path d="M7 0.8l1.9 4.1 4.4.5-3.3 3 .9 4.4L7 10.6l-3.9 2.2.9-4.4-3.3-3 4.4-.5z" />
      )}
      {role === 'insync' && <circle cx="7" cy="7" r="5.2" />}
      {role === 'outofsync' && (
        <circle cx="7" cy="7" r="4.8" fill="none" strokeWidth="1.8" strokeDasharray="3 2" />
      )}
      {role === 'elr' && <path d="M7 1l6 6-6 6-6-6z" />}
      {role === 'offline' && <path d="M2.5 2.5l9 9M11.5 2.5l-9 9" fill="none" strokeWidth="2.4" />}
    </svg>
  );
});

export const ROLE_NAMES: Record<ReplicaRole, string> = {
  leader: 'Leader',
  insync: 'In-sync follower',
  outofsync: 'Out-of-sync follower',
  elr: 'Eligible leader replica (ELR)',
  offline: 'Offline replica',
};
