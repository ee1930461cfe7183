/** Luhn (mod 10) check digits, as ICCIDs (ITU-T E.118) and IMEIs carry them. */

/** The check digit to append to a string of digits. */
export function luhnDigit(digits: string): string {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 0) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return String((10 - (sum % 10)) % 10);
}

/** Whether the last digit is the Luhn check digit of the others. */
export function luhnValid(digits: string): boolean {
  return /^\d{2,}$/.test(digits) && luhnDigit(digits.slice(0, -1)) === digits.slice(-1);
}

/** An ICCID: 18 to 22 digits ending with its Luhn check digit. */
export function isValidIccid(value: string): boolean {
  return /^\d{18,22}$/.test(value) && luhnValid(value);
}
