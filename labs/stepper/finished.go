package stepper

import (
	"fmt"

	"github.com/agent-loop-lab/agent-loop-lab/fakemodel"
	"github.com/agent-loop-lab/agent-loop-lab/labs/diagram"
)

// finished adds a finished run to the page: for each message of its
// history, the step that added it, as the lab's README names the steps.
// Step 2 asks the model and appends its reply; step 3 looks for tool calls
// in it; steps 4 and 5 run the tool of each call and append its result. A
// failed request ends the run after step 2, as lab 04's does.
func (b *builder) finished(f diagram.Finished) {
	if f.Title != "" || b.p == nil {
		b.part(f.Part, f.Title, nil)
	}
	b.run(nil)
	w, lang := b.w, b.o.Lang
	var reply fakemodel.AssistantMessage
	for _, m := range f.History {
		switch m := m.(type) {
		case fakemodel.UserMessage:
			b.step()
			b.message(m)
			b.item(&itemView{Loop: "1", Label: w.Step1, About: w.Step1What, Detail: m.Text})
		case fakemodel.AssistantMessage:
			reply = m
			b.step()
			b.turn++
			b.asks()
			if b.req <= len(f.Requests) {
				b.request(f.Requests[b.req-1])
			}
			b.message(m)
			b.item(&itemView{Loop: "2", Label: w.Step2, About: w.Step2What, Detail: m.Text})
			b.step()
			switch {
			case m.StopReason == fakemodel.StopReasonError || m.StopReason == fakemodel.StopReasonAborted:
				b.item(&itemView{Loop: "failed", Label: w.StepFailed, About: w.StepFailedWhat, Detail: m.ErrorMessage})
			case len(m.ToolCalls) > 0:
				calls := counted(lang, len(m.ToolCalls), "call", "calls", "个调用")
				b.item(&itemView{Loop: "3", Label: fmt.Sprintf(w.Step3Yes, calls), About: w.Step3What})
			default:
				b.item(&itemView{Loop: "3", Label: w.Step3No, About: w.Step3What, Detail: m.Text})
			}
		case fakemodel.ToolResultMessage:
			args := ""
			for _, c := range reply.ToolCalls {
				if c.ID == m.ToolCallID {
					args = compact(c.Arguments)
				}
			}
			b.step()
			b.exe++
			b.toolStart(m.ToolCallID, m.ToolName, []byte(args), 0)
			b.toolEnd(m.ToolCallID, m.Content, m.IsError, nil, 0)
			detail := m.Content
			if m.IsError {
				detail = fmt.Sprintf(w.Failed, m.Content)
			}
			b.item(&itemView{Loop: "4", Label: fmt.Sprintf(w.Step4, m.ToolName, args), About: w.Step4What, Detail: detail})
			b.step()
			b.message(m)
			b.item(&itemView{Loop: "5", Label: fmt.Sprintf(w.Step5, m.ToolCallID), About: w.Step5What})
		}
	}
	b.step()
	end, what := w.StepEnd, w.StepEndWhat
	if f.StopReason == "max_turns" {
		end = w.StepEndLimit
	}
	if !f.Answered {
		what = w.StepEndError
	}
	turns := counted(lang, f.Turns, "turn", "turns", "轮")
	b.item(&itemView{Loop: "end", Label: fmt.Sprintf(end, turns, f.StopReason), About: what})
	b.note(fmt.Sprintf("history holds %s: %s", counted(English, len(f.History), "message", "messages", ""), fakemodel.RoleList(f.History)))
	if f.Answered {
		b.note("answer: " + f.Answer)
	} else {
		b.note("answer: none: the loop stopped before the model answered")
	}
}
