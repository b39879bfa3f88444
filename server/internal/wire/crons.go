package wire

import (
	"encoding/json"
	"time"

	"github.com/tripgraph/tripgraph/store/crons"
)

// Cron is a scheduled run as LangGraph's clients read it. ThreadID is null
// for a cron that makes a new thread each run; NextRunDate null once it
// will not run again.
type Cron struct {
	CronID         string          `json:"cron_id"`
	AssistantID    string          `json:"assistant_id"`
	ThreadID       *string         `json:"thread_id"`
	UserID         string          `json:"user_id"`
	Schedule       string          `json:"schedule"`
	Timezone       string          `json:"timezone"`
	EndTime        *time.Time      `json:"end_time"`
	Payload        json.RawMessage `json:"payload"`
	NextRunDate    *time.Time      `json:"next_run_date"`
	Metadata       json.RawMessage `json:"metadata"`
	Enabled        bool            `json:"enabled"`
	OnRunCompleted string          `json:"on_run_completed"`
	CreatedAt      time.Time       `json:"created_at"`
	UpdatedAt      time.Time       `json:"updated_at"`
}

// CronCreate is the body of POST /runs/crons and POST
// /threads/{id}/runs/crons: the members of a run body (RunCreate), which
// each run of the cron is made of, and these.
type CronCreate struct {
	Schedule       string     `json:"schedule" validate:"required,max=200"`
	Timezone       string     `json:"timezone" validate:"max=100"`
	EndTime        *time.Time `json:"end_time"`
	Enabled        *bool      `json:"enabled"`
	OnRunCompleted string     `json:"on_run_completed" validate:"omitempty,oneof=delete keep"`
}

// CronPatch is the body of PATCH /runs/crons/{id}: the cron's members
// sent, and run members, which replace the run each due time starts.
type CronPatch struct {
	Schedule       *string    `json:"schedule" validate:"omitempty,max=200"`
	Timezone       *string    `json:"timezone" validate:"omitempty,max=100"`
	EndTime        *time.Time `json:"end_time"`
	Enabled        *bool      `json:"enabled"`
	OnRunCompleted *string    `json:"on_run_completed" validate:"omitempty,oneof=delete keep"`
}

// CronSearch is the body of POST /runs/crons/search.
type CronSearch struct {
	AssistantID string   `json:"assistant_id" validate:"max=200"`
	ThreadID    string   `json:"thread_id" validate:"omitempty,uuid"`
	Enabled     *bool    `json:"enabled"`
	Limit       int      `json:"limit" validate:"min=0,max=1000"`
	Offset      int      `json:"offset" validate:"min=0"`
	SortBy      string   `json:"sort_by" validate:"omitempty,oneof=cron_id assistant_id thread_id created_at updated_at next_run_date end_time"`
	SortOrder   string   `json:"sort_order" validate:"omitempty,oneof=asc desc"`
	Select      []string `json:"select"`
}

// CronCount is the body of POST /runs/crons/count.
type CronCount struct {
	AssistantID string `json:"assistant_id" validate:"max=200"`
	ThreadID    string `json:"thread_id" validate:"omitempty,uuid"`
}

// FromCron is a cron on the wire.
func FromCron(c crons.Cron) Cron {
	out := Cron{CronID: c.ID, AssistantID: c.AssistantID, UserID: c.UserID, Schedule: c.Schedule, Timezone: c.Timezone,
		EndTime: utc(c.EndTime), Payload: c.Payload, NextRunDate: utc(c.NextRunAt), Metadata: c.Metadata, Enabled: c.Enabled,
		OnRunCompleted: c.OnCompleted, CreatedAt: c.CreatedAt.UTC(), UpdatedAt: c.UpdatedAt.UTC()}
	if c.ThreadID != "" {
		id := c.ThreadID
		out.ThreadID = &id
	}
	return out
}

func utc(t *time.Time) *time.Time {
	if t == nil {
		return nil
	}
	u := t.UTC()
	return &u
}
