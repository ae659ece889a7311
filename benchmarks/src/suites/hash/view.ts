import type { SuiteView } from '../../model/view.js'

/**
 * A summary (the terminal, a README) shows each candidate's defaults; the cost-equalised settings
 * answer claims (their findings are printed) and fill the reports. The terminal and a README show the hash alone:
 * a verify repeats the derivation (the reports and the bcryptjs finding give both).
 */
export const view: SuiteView = {
  summary: (row) => row.key.setting === 'defaults',
  terminal: (row) => row.key.operation === 'hash',
  columns: ['runs on'],
}
