export interface EntryCandidate {
  id: string
  module?: string
  setup?: string
  call: string
}
export declare function writeMeasuringEntry(dir: string, name: string, candidates: EntryCandidate[]): string
export declare function writeConformanceEntry(dir: string, name: string, packages: string[]): string
