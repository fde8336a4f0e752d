import path from 'node:path';

import { FileJsonSource, HttpJsonSource } from '@toolmesh/registry';
import type { Logger } from '@toolmesh/transport-http/server';

import type { GatewayConfig } from '../config/gateway-config';
import { DEFAULT_SKILLS_PATH, fileSkillFiles, httpSkillFiles, serviceSkillSource } from '../skills/service-skills';
import { SkillCatalogue } from '../skills/skill-catalogue';
import { skillFolderSource } from '../skills/skill-folders';

/**
 * The gateway's own skills (issue 49): the operators' folders, then the tool services named in
 * `mcp.skills.bundles` (their manifests fetched with the catalogue's timeout and size cap), in that order.
 */
export function buildSkills(mcp: GatewayConfig['mcp'], logger: Logger, now: () => number): SkillCatalogue {
  const { skills, catalogue } = mcp;
  const limits = { maxFilesPerSkill: skills.maxFilesPerSkill, maxBytesPerSkill: skills.maxBytesPerSkill };
  const fetchLimits = { timeoutMillis: catalogue.manifestTimeoutMillis, maxBytes: catalogue.maxManifestBytes };
  const services = skills.bundles.map((name) => {
    const bundle = mcp.bundles.find((each) => each.name === name);
    // load-config.ts checked that each names a bundle with a manifest.
    const { manifestFile, manifestPath = '', serviceDomain = '' } = bundle ?? {};
    const domain = serviceDomain.replace(/\/+$/, '');
    return manifestFile !== undefined
      ? serviceSkillSource(
          name,
          new FileJsonSource(manifestFile),
          fileSkillFiles(path.join(path.dirname(manifestFile), DEFAULT_SKILLS_PATH)),
          limits,
        )
      : serviceSkillSource(
          name,
          new HttpJsonSource(new URL(`${domain}${manifestPath}`), fetchLimits),
          httpSkillFiles(`${domain}${DEFAULT_SKILLS_PATH}`, catalogue.manifestTimeoutMillis),
          limits,
        );
  });
  return new SkillCatalogue([...skills.folders.map((folder) => skillFolderSource(folder, limits)), ...services], {
    ttlMillis: catalogue.refreshTtlMillis,
    limits,
    now,
    logger,
  });
}
