import { brDate } from '@/lib/format'

/** What a client's erase tells the owner when it kept health records (LGPD art. 16 I; CFP 001/2009; Lei 13.787/2018). */
export const erasedRecordsText = (keptUntil: string, lawUntil: string) =>
  `O prontuário fica guardado, lacrado, como a lei exige: pode ser eliminado a partir de ${brDate(keptUntil)}; a Lei 13.787/2018 prevê a guarda até ${brDate(lawUntil)}.`
