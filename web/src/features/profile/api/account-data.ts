import { useMutation } from '@tanstack/react-query'
import { download } from '@/lib/api/download'

/** LGPD: the owner's copy of the account and the practice, as a JSON file. */
export const exportAccountData = () => download('/api/account/data', '', 'meus-dados-agendei.json')

export const useExportAccountData = () => useMutation({ mutationFn: exportAccountData })
