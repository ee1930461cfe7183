/** A public mobile network as the portal keeps it (reference data from the mcc-mnc-list catalogue). */
export interface MobileNetwork {
  plmn: string;
  mcc: string;
  mnc: string;
  /** ISO 3166 alpha-2 code. */
  country: string;
  operator: string | null;
  brand: string | null;
  status: string | null;
  bands: string | null;
}
