// The usage a tool prints after a usage error (CommandLineUtils.printUsageAndExit: the message,
// then joptsimple's help table of the options).

import { usageTable } from './options';
import type { Tool } from './tool';

export function usage(tool: Tool): string {
  const sub = tool.subcommands?.length ? ` {${tool.subcommands.join(',')}}` : '';
  return `Usage: ${tool.name}${sub} [options]\n${tool.purpose}\n${usageTable(tool.options)}`;
}
