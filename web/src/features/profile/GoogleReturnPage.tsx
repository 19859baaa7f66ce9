import { toast } from 'sonner'
import { finishGoogle } from '@/lib/api/endpoints/google-calendars'
import { queryKeys } from '@/lib/api/keys'
import { OAuthReturnPage } from './OAuthReturnPage'

/** Where Google sends the owner back after 'Conectar Google Agenda' (/profile/google). */
export default function GoogleReturnPage() {
  return (
    <OAuthReturnPage
      finish={finishGoogle}
      connected={(src, qc) => {
        void qc.invalidateQueries({ queryKey: queryKeys.calendars })
        toast.success('Google Agenda conectada', { description: `${src.host}: vamos ler os horários ocupados da agenda principal agora. Escolha outras agendas no perfil.` })
      }}
      failedTitle="Google Agenda não conectada"
      fallback="Não foi possível conectar o Google Agenda. Tente novamente."
    />
  )
}
