const fs = require('node:fs');

/**
 * The processes of one process group, read from /proc (Linux; elsewhere none): their id, command line,
 * working directory and age. tools/test/run-all.js uses it to say what a long test phase is doing and to
 * find what a phase left behind.
 */
function processesInGroup(group) {
  let names;
  try {
    names = fs.readdirSync('/proc').filter((name) => /^\d+$/.test(name));
  } catch {
    return [];
  }
  const ticksPerSecond = 100; // USER_HZ on Linux
  const uptimeMs = readUptimeMs();
  const found = [];
  for (const name of names) {
    try {
      const stat = fs.readFileSync(`/proc/${name}/stat`, 'utf8');
      // After the command in parentheses: state, ppid, pgrp, ... field 22 is the start time in ticks.
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (Number(fields[2]) !== group) continue;
      found.push({
        pid: Number(name),
        command: fs.readFileSync(`/proc/${name}/cmdline`, 'utf8').split('\0').join(' ').trim(),
        cwd: fs.readlinkSync(`/proc/${name}/cwd`),
        ageMs: uptimeMs - (Number(fields[19]) / ticksPerSecond) * 1000,
      });
    } catch {
      // gone meanwhile, or not ours to read
    }
  }
  return found;
}

function readUptimeMs() {
  try {
    return Number(fs.readFileSync('/proc/uptime', 'utf8').split(' ')[0]) * 1000;
  } catch {
    return 0;
  }
}

module.exports = { processesInGroup };
