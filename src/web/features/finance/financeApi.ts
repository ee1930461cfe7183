/** The books: trial balance, an account's journal and the drift check (generated calls, with their answer types). */
import { enhancedApi, type GetFinanceLedgerCheckApiResponse, type GetFinanceTrialBalanceApiResponse } from './financeApi.gen';

export type TrialAccount = GetFinanceTrialBalanceApiResponse['accounts'][number];
export type DriftItem = GetFinanceLedgerCheckApiResponse['drift'][number];

// The ledger moves with every purchase and payment, written by other screens: each screen reads it afresh on opening.
export const financeApi = enhancedApi;

export const { useGetFinanceTrialBalanceQuery, useGetFinanceAccountsByCodeLinesQuery, useGetFinanceLedgerCheckQuery, useGetFinanceOverviewQuery } = financeApi;
