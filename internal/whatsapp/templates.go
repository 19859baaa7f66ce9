package whatsapp

// Agendei's message templates, created in each owner's WhatsApp Business
// Account (Meta reviews them there; a template message goes out only once
// it is APPROVED). Names carry a version: a changed text is a new template,
// since Meta does not let an approved template's body change silently.
//
// Body parameters, in order: {{1}} the client's name, {{2}} the practice,
// {{3}} the service, {{4}} the date (pt-BR), {{5}} the time.

// Kinds of message.
const (
	KindConfirmation = "confirmation"
	KindReminder     = "reminder"
	// KindWaitlistOffer is a freed time offered to a waitlist entry, with
	// its claim link and until when it holds.
	KindWaitlistOffer = "waitlist_offer"
	// KindCancellation tells the client the owner cancelled their
	// appointment (the owner's "avisar o cliente" on a cancellation).
	KindCancellation = "cancellation"
)

// Language is the templates' language code.
const Language = "pt_BR"

// The reminder's quick-reply buttons, by index; a tap comes back as a
// webhook with the payload Agendei put on that button.
const (
	ButtonConfirm    = "Confirmar"
	ButtonReschedule = "Remarcar"
	ButtonCancel     = "Cancelar"
)

var example = &TemplateExample{BodyText: [][]string{{"Ana", "Clínica Sorriso", "Limpeza", "quinta-feira, 26/11", "14:00"}}}

// ConfirmationTemplate is the booking confirmation.
func ConfirmationTemplate() NewTemplate {
	return NewTemplate{Name: "agendei_confirmacao_v1", Language: Language, Category: "UTILITY", Components: []TemplateComponent{
		{Type: "BODY", Text: "Olá, {{1}}! Seu agendamento com {{2}} está confirmado: {{3}} em {{4}} às {{5}}.", Example: example},
	}}
}

// ReminderTemplate is the reminder before an appointment, with the three
// one-tap answers.
func ReminderTemplate() NewTemplate {
	return NewTemplate{Name: "agendei_lembrete_v1", Language: Language, Category: "UTILITY", Components: []TemplateComponent{
		{Type: "BODY", Text: "Olá, {{1}}! Lembrete do seu horário com {{2}}: {{3}} em {{4}} às {{5}}. Você confirma presença?", Example: example},
		{Type: "BUTTONS", Buttons: []TemplateButton{{Type: "QUICK_REPLY", Text: ButtonConfirm}, {Type: "QUICK_REPLY", Text: ButtonReschedule}, {Type: "QUICK_REPLY", Text: ButtonCancel}}},
	}}
}

// WaitlistOfferTemplate is a freed time offered to a client on the
// waitlist. Body parameters: {{1}} the client's name, {{2}} the practice,
// {{3}} the service, {{4}} the date, {{5}} the time, {{6}} until when the
// link holds the time ("14:35"), {{7}} the claim link. (Meta refuses a
// body that ends with a parameter: the sentence after the link closes it.)
func WaitlistOfferTemplate() NewTemplate {
	return NewTemplate{Name: "agendei_lista_espera_v1", Language: Language, Category: "UTILITY", Components: []TemplateComponent{
		{Type: "BODY", Text: "Olá, {{1}}! Vagou um horário com {{2}} que combina com a sua lista de espera: {{3}} em {{4}} às {{5}}. " +
			"Para ficar com ele, confirme até as {{6}} pelo link {{7}} . O horário fica com quem confirmar primeiro; se não quiser, ignore: você continua na lista.",
			Example: &TemplateExample{BodyText: [][]string{{"Ana", "Clínica Sorriso", "Limpeza", "quinta-feira, 26/11", "14:00", "10:15",
				"https://agendei.example.com/lista-de-espera/oferta/abc123"}}}},
	}}
}

// CancellationTemplate tells the client the owner cancelled their
// appointment.
func CancellationTemplate() NewTemplate {
	return NewTemplate{Name: "agendei_cancelamento_v1", Language: Language, Category: "UTILITY", Components: []TemplateComponent{
		{Type: "BODY", Text: "Olá, {{1}}. {{2}} cancelou o seu agendamento: {{3}} em {{4}} às {{5}}. Para marcar outro horário, fale com a clínica ou use a página de agendamento.", Example: example},
	}}
}

// TemplateFor is the template of a kind of message.
func TemplateFor(kind string) NewTemplate {
	switch kind {
	case KindCancellation:
		return CancellationTemplate()
	case KindReminder:
		return ReminderTemplate()
	case KindWaitlistOffer:
		return WaitlistOfferTemplate()
	}
	return ConfirmationTemplate()
}

// Kinds lists every kind, in the order the profile shows them.
var Kinds = []string{KindConfirmation, KindReminder, KindWaitlistOffer, KindCancellation}
