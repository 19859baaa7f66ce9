import { brDate } from '@/lib/format'

/** 'Guarda mínima até …': a record may be destroyed from this date on (5 years after its last entry, CFP 001/2009). */
export const keptUntilText = (keptUntil: string) => `Guarda mínima até ${brDate(keptUntil)} (5 anos após a última anotação)`

/** Lei 13.787/2018 (art. 6): 20 years after the last entry. */
export const lawUntilText = (lawUntil: string) => `Lei 13.787/2018: até ${brDate(lawUntil)}`
