/**
 * The columns of the subscriber export that an uploaded file may change (`POST /portal/subscribers/bulk/csv`):
 * those of the bulk actions, and the details a user edits on the subscriber page. The server and the upload
 * dialog read the same list.
 */
export const DETAIL_FIELDS = ['name', 'deviceType', 'device', 'imei', 'apn'] as const;
export const CSV_COLUMNS = [
  'status',
  'dailyLimitBytes',
  'qosThrottling',
  'pricingPlanId',
  'roamingProfileId',
  'accountId',
  'groupName',
  ...DETAIL_FIELDS,
] as const;
