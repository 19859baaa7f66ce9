import { useMutation } from '@tanstack/react-query'
import { download } from '@/lib/api/download'

/** For an incident notice (LGPD art. 48): the clients whose records a professional keeps, as CSV — never a note. */
export const downloadRecordHolders = (professional: string) =>
  download('/api/records/holders.csv', `?${new URLSearchParams({ professional })}`, 'clientes-com-prontuario.csv')

export const useDownloadRecordHolders = () => useMutation({ mutationFn: downloadRecordHolders })
