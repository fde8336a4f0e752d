/**
 * The skill this service ships beside its manifest (docs/manifest-format.md, "Skills"; issue 49): the
 * manifest's `skills` member lists it, and each file is served at `/skills/<name>/<file>`. Kept here as
 * text because the service is bundled into one file.
 */
export const SKILLS_PATH = '/skills';

interface SampleSkill {
  readonly name: string;
  readonly files: Readonly<Record<string, string>>;
}

export const SAMPLE_SKILLS: readonly SampleSkill[] = [
  {
    name: 'order-refunds',
    files: {
      'SKILL.md': `---
name: order-refunds
description: Decide whether an order of the sample shop may be refunded, and how much. Use when a customer asks for a refund or a return.
metadata:
  owner: sample-tool-service
---
# Order refunds

1. Look the order up with \`order_search\` and the customer with \`customer_lookup\`.
2. Check the order against [the refund limits](references/limits.md).
3. Say which rule decided, and the amount.
`,
      'references/limits.md': `# Refund limits

- Within 30 days of the order: a full refund.
- From 31 to 90 days: store credit only.
- Gold customers: 60 days for a full refund.
`,
    },
  },
];

/** The manifest's `skills` member: each skill's name and the paths of its files. */
export function skillsManifestMember(): Array<{ name: string; files: string[] }> {
  return SAMPLE_SKILLS.map(({ name, files }) => ({ name, files: Object.keys(files) }));
}
