const fs = require('node:fs');

/**
 * The processes started, directly or not, by one process, read from /proc (Linux; elsewhere none): their
 * id, process group, command line, working directory and age. tools/test/run-all.js uses it to say what a
 * long test phase is doing and to end all of it. Nx runs each task in a process group of its own, so a
 * phase's processes are found by parentage, not by group.
 */
function descendantsOf(root) {
  const table = processTable();
  const children = new Map();
  for (const entry of table) {
    if (!children.has(entry.ppid)) children.set(entry.ppid, []);
    children.get(entry.ppid).push(entry);
  }
  const found = [];
  const queue = [...(children.get(root) ?? [])];
  while (queue.length > 0) {
    const entry = queue.shift();
    found.push(entry);
    queue.push(...(children.get(entry.pid) ?? []));
  }
  return found;
}

/** The processes of one process group. */
function processesInGroup(group) {
  return processTable().filter((entry) => entry.pgrp === group);
}

/** The process group of `pid` (undefined when it is gone or there is no /proc). */
function groupOf(pid) {
  return processTable().find((entry) => entry.pid === pid)?.pgrp;
}

function processTable() {
  let names;
  try {
    names = fs.readdirSync('/proc').filter((name) => /^\d+$/.test(name));
  } catch {
    return [];
  }
  const ticksPerSecond = 100; // USER_HZ on Linux
  const uptimeMs = readUptimeMs();
  const table = [];
  for (const name of names) {
    try {
      const stat = fs.readFileSync(`/proc/${name}/stat`, 'utf8');
      // After the command in parentheses: state, ppid, pgrp, ... field 22 is the start time in ticks.
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      table.push({
        pid: Number(name),
        ppid: Number(fields[1]),
        pgrp: Number(fields[2]),
        command: fs.readFileSync(`/proc/${name}/cmdline`, 'utf8').split('\0').join(' ').trim(),
        cwd: fs.readlinkSync(`/proc/${name}/cwd`),
        ageMs: uptimeMs - (Number(fields[19]) / ticksPerSecond) * 1000,
      });
    } catch {
      // gone meanwhile, or not ours to read
    }
  }
  return table;
}

function readUptimeMs() {
  try {
    return Number(fs.readFileSync('/proc/uptime', 'utf8').split(' ')[0]) * 1000;
  } catch {
    return 0;
  }
}

module.exports = { descendantsOf, groupOf, processesInGroup };
