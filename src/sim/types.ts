// The engine's public types (scenario, commands, snapshot views, events): import them from here.
export type * from './model/types';
