import { version } from '../../../package.json';

/** Who this service is, as the manifest's `service` member and get_service_info report it. */
export const SERVICE_IDENTITY = {
  name: 'tool-service-sample',
  title: 'Sample tool service',
  version,
} as const;
