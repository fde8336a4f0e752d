import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

/**
 * A large tool catalogue made up deterministically, for the tool-search tests and benchmarks (issue 29):
 * up to 10,000 distinct tools, each a system, an action and a kind of record, with a description written
 * as a service owner would ("Exports the invoices of the billing ledger as a CSV file ...") and an input
 * schema of the size real tools have. The same index gives the same tool on every run, so the fixed query
 * set (tool-search-queries.json) can name the tools it expects.
 */
interface SyntheticTool {
  readonly name: string;
  readonly description: string;
  readonly inputSchema: Record<string, unknown>;
  readonly annotations: { readonly readOnlyHint: boolean };
}

/** The systems: a name part and how a description speaks of it. */
const SYSTEMS: ReadonlyArray<readonly [string, string]> = [
  ['billing', 'the billing ledger'],
  ['crm', 'the customer relationship records'],
  ['hr', 'the personnel directory'],
  ['inventory', 'the warehouse stock register'],
  ['support', 'the helpdesk queue'],
  ['shipping', 'the carrier dispatch system'],
  ['payroll', 'the salary payment runs'],
  ['procurement', 'the purchasing workflow'],
  ['marketing', 'the campaign planner'],
  ['legal', 'the contract repository'],
  ['security', 'the access audit trail'],
  ['analytics', 'the reporting warehouse'],
  ['fleet', 'the vehicle maintenance log'],
  ['facilities', 'the building management system'],
  ['travel', 'the business trip booking desk'],
  ['learning', 'the training course catalogue'],
  ['compliance', 'the regulatory filing tracker'],
  ['treasury', 'the cash position forecaster'],
  ['quality', 'the defect inspection records'],
  ['research', 'the laboratory sample tracker'],
];

/** The kinds of record: a name part, the plural a description uses, and the record's own field. */
const RECORDS: ReadonlyArray<readonly [string, string, string]> = [
  ['invoice', 'invoices', 'amountDue'],
  ['customer', 'customers', 'accountTier'],
  ['order', 'orders', 'orderTotal'],
  ['shipment', 'shipments', 'trackingNumber'],
  ['ticket', 'tickets', 'priority'],
  ['employee', 'employees', 'department'],
  ['contract', 'contracts', 'renewalDate'],
  ['vendor', 'vendors', 'paymentTerms'],
  ['asset', 'assets', 'serialNumber'],
  ['budget', 'budgets', 'fiscalYear'],
  ['report', 'reports', 'reportingPeriod'],
  ['schedule', 'schedules', 'recurrence'],
  ['permit', 'permits', 'expiryDate'],
  ['incident', 'incidents', 'severity'],
  ['expense', 'expenses', 'receiptUrl'],
  ['timesheet', 'timesheets', 'hoursWorked'],
  ['warranty', 'warranties', 'coverageEnd'],
  ['license', 'licenses', 'seatCount'],
  ['survey', 'surveys', 'responseRate'],
  ['forecast', 'forecasts', 'confidence'],
  ['payment', 'payments', 'settlementDate'],
  ['refund', 'refunds', 'refundReason'],
  ['lead', 'leads', 'leadSource'],
  ['meeting', 'meetings', 'attendeeCount'],
  ['document', 'documents', 'mimeType'],
];

/** The actions: a name part, the sentence (with `{records}`, `{system}`), whether it only reads, and its own parameter. */
const ACTIONS: ReadonlyArray<readonly [string, string, boolean, string]> = [
  ['list', 'Lists the {records} of {system}, newest first, filtered by status and owner', true, 'status'],
  ['get', 'Fetches one of the {records} of {system} by its identifier, with every field', true, 'includeHistory'],
  ['create', 'Creates a new entry among the {records} of {system} from the given fields', false, 'fields'],
  ['update', 'Changes fields of one of the {records} of {system}, keeping the others', false, 'fields'],
  ['delete', 'Deletes one of the {records} of {system} permanently; it cannot be restored', false, 'reason'],
  ['archive', 'Moves old {records} of {system} to cold storage, out of the active views', false, 'olderThanDays'],
  ['export', 'Exports the {records} of {system} as a CSV or spreadsheet file for download', true, 'format'],
  ['import', 'Imports {records} into {system} from an uploaded CSV file, skipping duplicates', false, 'fileUrl'],
  ['approve', 'Approves pending {records} of {system} and notifies whoever submitted them', false, 'comment'],
  ['reject', 'Rejects pending {records} of {system} with a reason sent back to the submitter', false, 'reason'],
  ['assign', 'Assigns {records} of {system} to a colleague or a team as their new owner', false, 'assignee'],
  ['search', 'Searches the {records} of {system} by free text in their titles and notes', true, 'text'],
  ['count', 'Counts the {records} of {system} grouped by month, for dashboards', true, 'groupBy'],
  ['summarize', 'Writes a short summary of recent changes to the {records} of {system}', true, 'days'],
  ['validate', 'Checks the {records} of {system} for missing or inconsistent fields and lists problems', true, 'rules'],
  ['merge', 'Merges duplicate {records} of {system} into one, keeping the newest values', false, 'duplicateIds'],
  ['duplicate', 'Copies one of the {records} of {system} as a new draft to edit', false, 'title'],
  ['remind', 'Sends a reminder by email about overdue {records} of {system}', false, 'recipients'],
  ['audit', 'Shows who changed the {records} of {system} and when, from the change log', true, 'since'],
  ['restore', 'Restores archived {records} of {system} back into the active views', false, 'archiveId'],
];

/**
 * The first `servers * toolsEach` tools as one JSON file per server (for tools/test/peers/stdio-peer.mjs's
 * `--tools-file`), in a new temporary folder: server i gets tools i*toolsEach onwards. Returns the files.
 */
export function writeSyntheticToolFiles(servers: number, toolsEach: number): string[] {
  const dir = mkdtempSync(path.join(tmpdir(), 'synthetic-tools-'));
  const tools = syntheticTools(servers * toolsEach);
  return Array.from({ length: servers }, (_, i) => {
    const file = path.join(dir, `tools-${i}.json`);
    writeFileSync(file, JSON.stringify(tools.slice(i * toolsEach, (i + 1) * toolsEach)));
    return file;
  });
}

/** Most tools this catalogue can make: every system, action and record once. */
const MAX_SYNTHETIC_TOOLS = SYSTEMS.length * ACTIONS.length * RECORDS.length;

/** The first `count` tools, system by system, then action by action, then record by record. */
export function syntheticTools(count: number): SyntheticTool[] {
  if (count > MAX_SYNTHETIC_TOOLS) throw new Error(`at most ${MAX_SYNTHETIC_TOOLS} synthetic tools, not ${count}`);
  return Array.from({ length: count }, (_, index) => syntheticTool(index));
}

function syntheticTool(index: number): SyntheticTool {
  const record = RECORDS[index % RECORDS.length];
  const action = ACTIONS[Math.floor(index / RECORDS.length) % ACTIONS.length];
  const system = SYSTEMS[Math.floor(index / (RECORDS.length * ACTIONS.length))];
  const [systemName, systemPhrase] = system;
  const [recordName, records, recordField] = record;
  const [actionName, sentence, readOnly, actionParameter] = action;
  return {
    name: `${systemName}_${actionName}_${recordName}`,
    description:
      `${sentence.replace('{records}', records).replace('{system}', systemPhrase)}. ` +
      `Works on ${records} only; needs the ${systemName} role. Results are paged: pass the cursor of the previous page.`,
    inputSchema: {
      type: 'object',
      properties: {
        [`${recordName}Id`]: { type: 'string', description: `The identifier of one of the ${records}, as ${systemPhrase} shows it.` },
        [recordField]: { type: 'string', description: `Only ${records} with this ${recordField}.` },
        [actionParameter]: { type: 'string', description: `What this ${actionName} call should use as its ${actionParameter}.` },
        pageSize: { type: 'integer', minimum: 1, maximum: 500, description: 'Most entries in one page of the result (default 50).' },
        cursor: { type: 'string', description: 'Where the previous page ended, from its nextCursor.' },
      },
      additionalProperties: false,
    },
    annotations: { readOnlyHint: readOnly },
  };
}
