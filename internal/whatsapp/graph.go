package whatsapp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"

	"github.com/agendei/agendei/internal/platform/brfmt"
	"github.com/agendei/agendei/internal/platform/connect"
)

// GraphVersion is the Graph API version every call names. Meta keeps a
// version for two years after the next one ships; moving it is a change
// reviewed against the changelog, never implicit.
const GraphVersion = "v21.0"

// Graph is a small typed client of the three WhatsApp Cloud API calls
// Agendei makes, over net/http (no Go client of the Cloud API is well kept
// enough to depend on). Each owner has their own token, so it is an
// argument of every call, never state of the client.
//
// The shapes follow Meta's references (WhatsApp Business Platform):
//   - phone numbers: GET /{phone-number-id}?fields=display_phone_number,verified_name
//     → {"display_phone_number":"+55 11 …","verified_name":"…","id":"…"}
//   - Message Templates API (whatsapp-business-account/message-template-api):
//     POST /{waba-id}/message_templates {name, language, category, components}
//     → {"id":"…","status":"PENDING","category":"UTILITY"};
//     GET /{waba-id}/message_templates?fields=… → {"data":[{name,language,status,category,id}],"paging":{…}}
//   - messages (cloud-api/reference/messages): POST /{phone-number-id}/messages
//     {messaging_product:"whatsapp", recipient_type:"individual", to, type:"template",
//     template:{name, language:{code}, components:[{type:"body",parameters:[{type:"text",text}]},
//     {type:"button",sub_type:"quick_reply",index:"0",parameters:[{type:"payload",payload}]}]}}
//     → {"messaging_product":"whatsapp","contacts":[{input,wa_id}],"messages":[{"id":"wamid.…"}]}
//   - errors: {"error":{"message","type","code","error_subcode","fbtrace_id"}} with a 4xx/5xx status.
type Graph struct {
	*connect.Client // BaseURL e.g. https://graph.facebook.com (config AGENDEI_WHATSAPP_GRAPH_URL)
}

// NewGraph returns a client of the Graph API at baseURL with a bounded timeout.
func NewGraph(baseURL string) *Graph {
	c := connect.NewClient("graph api", baseURL)
	c.Fault = graphFault
	return &Graph{c}
}

// GraphError is an error answer of the Graph API.
type GraphError struct {
	Status    int    // HTTP status
	Code      int    `json:"code"`
	Subcode   int    `json:"error_subcode"`
	Type      string `json:"type"`
	Message   string `json:"message"`
	FBTraceID string `json:"fbtrace_id"`
}

func graphFault(status int, body []byte) error {
	var e struct {
		Error GraphError `json:"error"`
	}
	_ = json.Unmarshal(body, &e)
	e.Error.Status = status
	return &e.Error
}

func (e *GraphError) Error() string {
	return fmt.Sprintf("graph api: %d %s (code %d/%d): %s", e.Status, e.Type, e.Code, e.Subcode, e.Message)
}

// Auth reports an invalid, expired or under-privileged token (OAuth code
// 190, permission codes 10 and 200–299, or a 401/403 answer).
func (e *GraphError) Auth() bool {
	return e.Code == 190 || e.Code == 10 || (e.Code >= 200 && e.Code < 300) || connect.AuthStatus(e.Status)
}

// Temporary reports an error worth retrying: throttling (codes 4, 80007,
// 130429, 131048, 131056 and HTTP 429) or Meta's own fault (5xx, codes 1, 2, 131000).
func (e *GraphError) Temporary() bool {
	switch e.Code {
	case 1, 2, 4, 80007, 130429, 131000, 131048, 131056:
		return true
	}
	return connect.TemporaryStatus(e.Status)
}

// PhoneNumber is what Meta shows of a business phone number.
type PhoneNumber struct {
	ID                 string `json:"id"`
	DisplayPhoneNumber string `json:"display_phone_number"`
	VerifiedName       string `json:"verified_name"`
}

// PhoneNumber reads a phone number's display number and verified name:
// it proves the token reaches that number.
func (g *Graph) PhoneNumber(ctx context.Context, token, phoneNumberID string) (*PhoneNumber, error) {
	var out PhoneNumber
	q := url.Values{"fields": {"display_phone_number,verified_name"}}
	err := g.do(ctx, token, http.MethodGet, "/"+url.PathEscape(phoneNumberID), q, nil, &out)
	if err != nil {
		return nil, err
	}
	return &out, nil
}

// TemplateComponent is one component of a template being created: BODY
// with its example values, or BUTTONS.
type TemplateComponent struct {
	Type    string           `json:"type"` // BODY, BUTTONS
	Text    string           `json:"text,omitempty"`
	Example *TemplateExample `json:"example,omitempty"`
	Buttons []TemplateButton `json:"buttons,omitempty"`
}

// TemplateExample holds sample values of a body's {{n}} parameters, which
// Meta requires for review.
type TemplateExample struct {
	BodyText [][]string `json:"body_text"`
}

// TemplateButton is a button of a template; Agendei uses QUICK_REPLY.
type TemplateButton struct {
	Type string `json:"type"`
	Text string `json:"text"`
}

// NewTemplate is a template to create in an owner's WhatsApp Business Account.
type NewTemplate struct {
	Name       string              `json:"name"`
	Language   string              `json:"language"`
	Category   string              `json:"category"`
	Components []TemplateComponent `json:"components"`
}

// Template is a template as the account lists it.
type Template struct {
	ID       string `json:"id"`
	Name     string `json:"name"`
	Language string `json:"language"`
	Status   string `json:"status"` // APPROVED, PENDING, REJECTED, PAUSED, DISABLED, …
	Category string `json:"category"`
}

// CreateTemplate submits a template for review; it starts PENDING.
func (g *Graph) CreateTemplate(ctx context.Context, token, wabaID string, t NewTemplate) (*Template, error) {
	var out Template
	if err := g.do(ctx, token, http.MethodPost, "/"+url.PathEscape(wabaID)+"/message_templates", nil, t, &out); err != nil {
		return nil, err
	}
	out.Name, out.Language = t.Name, t.Language
	return &out, nil
}

// Templates lists the account's templates (every page).
func (g *Graph) Templates(ctx context.Context, token, wabaID string) ([]Template, error) {
	var all []Template
	q := url.Values{"fields": {"name,language,status,category"}, "limit": {"100"}}
	for page := 0; page < 20; page++ {
		var out struct {
			Data   []Template `json:"data"`
			Paging struct {
				Cursors struct {
					After string `json:"after"`
				} `json:"cursors"`
				Next string `json:"next"`
			} `json:"paging"`
		}
		if err := g.do(ctx, token, http.MethodGet, "/"+url.PathEscape(wabaID)+"/message_templates", q, nil, &out); err != nil {
			return nil, err
		}
		all = append(all, out.Data...)
		if out.Paging.Next == "" || out.Paging.Cursors.After == "" {
			break
		}
		q.Set("after", out.Paging.Cursors.After)
	}
	return all, nil
}

// Parameter is a value of a sent template's component.
type Parameter struct {
	Type    string `json:"type"` // text, payload
	Text    string `json:"text,omitempty"`
	Payload string `json:"payload,omitempty"`
}

// SendComponent is a component of a sent template: the body's parameters,
// or one quick-reply button's payload (index is a string in Meta's shape).
type SendComponent struct {
	Type       string      `json:"type"` // body, button
	SubType    string      `json:"sub_type,omitempty"`
	Index      string      `json:"index,omitempty"`
	Parameters []Parameter `json:"parameters"`
}

// TemplateMessage is a template message to one recipient.
type TemplateMessage struct {
	To         string // digits with country code, no "+" (E.164 without the plus)
	Template   string
	Language   string
	Body       []string // the body's {{1}}, {{2}}, … in order
	QuickReply []string // each quick-reply button's payload, by button index
	// CallbackData goes as biz_opaque_callback_data (at most 512
	// characters): Meta echoes it in the message's status webhooks, so a
	// message whose answer never came (a time-out) is still recognised.
	CallbackData string
}

// SendTemplate sends a template message and returns its id (wamid.…), by
// which later status webhooks name it. Every text parameter goes as one
// line (brfmt.OneLine): Meta refuses a tab, a new line or more than four
// consecutive spaces in one (error 132018), for good.
func (g *Graph) SendTemplate(ctx context.Context, token, phoneNumberID string, m TemplateMessage) (string, error) {
	comps := []SendComponent{}
	if len(m.Body) > 0 {
		body := SendComponent{Type: "body"}
		for _, v := range m.Body {
			body.Parameters = append(body.Parameters, Parameter{Type: "text", Text: brfmt.OneLine(v)})
		}
		comps = append(comps, body)
	}
	for i, p := range m.QuickReply {
		comps = append(comps, SendComponent{Type: "button", SubType: "quick_reply", Index: fmt.Sprint(i),
			Parameters: []Parameter{{Type: "payload", Payload: p}}})
	}
	req := map[string]any{
		"messaging_product": "whatsapp",
		"recipient_type":    "individual",
		"to":                m.To,
		"type":              "template",
		"template": map[string]any{
			"name":       m.Template,
			"language":   map[string]string{"code": m.Language},
			"components": comps,
		},
	}
	if m.CallbackData != "" {
		req["biz_opaque_callback_data"] = m.CallbackData
	}
	var out struct {
		Messages []struct {
			ID string `json:"id"`
		} `json:"messages"`
	}
	if err := g.do(ctx, token, http.MethodPost, "/"+url.PathEscape(phoneNumberID)+"/messages", nil, req, &out); err != nil {
		return "", err
	}
	if len(out.Messages) == 0 || out.Messages[0].ID == "" {
		return "", errors.New("graph api: message accepted without an id")
	}
	return out.Messages[0].ID, nil
}

// SendText sends a free-form text message: allowed only within 24 hours
// of the client's last message to the number (Meta's customer service
// window), which a quick-reply tap opens. The shape (messages reference):
// {messaging_product:"whatsapp", recipient_type:"individual", to, type:"text", text:{body, preview_url}}.
func (g *Graph) SendText(ctx context.Context, token, phoneNumberID, to, body string) (string, error) {
	req := map[string]any{
		"messaging_product": "whatsapp",
		"recipient_type":    "individual",
		"to":                to,
		"type":              "text",
		"text":              map[string]any{"body": body, "preview_url": false},
	}
	var out struct {
		Messages []struct {
			ID string `json:"id"`
		} `json:"messages"`
	}
	if err := g.do(ctx, token, http.MethodPost, "/"+url.PathEscape(phoneNumberID)+"/messages", nil, req, &out); err != nil {
		return "", err
	}
	if len(out.Messages) == 0 || out.Messages[0].ID == "" {
		return "", errors.New("graph api: message accepted without an id")
	}
	return out.Messages[0].ID, nil
}

// do calls the Graph API at the pinned version with the owner's token.
func (g *Graph) do(ctx context.Context, token, method, path string, q url.Values, in, out any) error {
	return g.Do(ctx, connect.Call{Method: method, Path: "/" + GraphVersion + path, Query: q, Token: token, In: in, Out: out})
}
