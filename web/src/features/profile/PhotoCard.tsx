import { Camera } from 'lucide-react'
import { useRef } from 'react'
import { toast } from 'sonner'
import { Button } from '@/components/ui/button'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card'
import { ApiError, errorMessage } from '@/lib/api/client'
import { Avatar } from '@/components/ui/avatar'
import { useUploadPhoto } from './api/upload-photo'

const TYPES = ['image/jpeg', 'image/png', 'image/webp', 'image/gif']
const MAX = 5 * 1024 * 1024

export function PhotoCard({ name, photoUrl }: { name: string; photoUrl: string }) {
  const input = useRef<HTMLInputElement>(null)
  const upload = useUploadPhoto()
  const busy = upload.isPending

  function onFile(e: React.ChangeEvent<HTMLInputElement>) {
    const file = e.target.files?.[0]
    e.target.value = ''
    if (!file) return
    if (!TYPES.includes(file.type)) {
      toast.error('Tipo de arquivo inválido', { description: 'Por favor, selecione uma imagem válida (JPEG, PNG, WebP ou GIF).' })
      return
    }
    if (file.size > MAX) {
      toast.error('Arquivo muito grande', { description: 'Por favor, selecione uma imagem menor que 5MB.' })
      return
    }
    upload.mutate(file, {
      onSuccess: () => toast.success('Sucesso', { description: 'Foto de perfil atualizada com sucesso!' }),
      onError: (err) => {
        if (err instanceof ApiError && err.code === 'invalid_file_type') toast.error('Tipo de arquivo inválido', { description: err.message })
        else if (err instanceof ApiError && err.code === 'file_too_large') toast.error('Arquivo muito grande', { description: err.message })
        else if (err instanceof ApiError && err.code === 'image_too_large') toast.error('Imagem grande demais', { description: err.message })
        else if (err instanceof ApiError && err.code === 'rate_limited') toast.error('Muitas tentativas', { description: err.message })
        else toast.error('Erro ao fazer upload', { description: errorMessage(err, 'Ocorreu um erro ao enviar sua foto. Tente novamente.') })
      },
    })
  }

  return (
    <Card>
      <CardHeader>
        <CardTitle>Foto de perfil</CardTitle>
        <CardDescription>JPEG, PNG, WebP ou GIF, até 5MB. Aparece na sua página pública.</CardDescription>
      </CardHeader>
      <CardContent className="flex items-center gap-4">
        <Avatar name={name} photoUrl={photoUrl} size="lg" />
        <input ref={input} id="photo" type="file" accept="image/jpeg,image/png,image/webp,image/gif" className="sr-only" onChange={onFile} aria-label="Escolher foto de perfil" />
        <Button variant="outline" onClick={() => input.current?.click()} disabled={busy}>
          <Camera aria-hidden /> {busy ? 'Enviando...' : 'Alterar foto'}
        </Button>
      </CardContent>
    </Card>
  )
}
