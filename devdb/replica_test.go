package devdb

import (
	"context"
	"net/url"
	"os"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
)

// A replica follows what the cluster writes, refuses writes of its own,
// and is stopped and started by its process id.
func TestReplicaFollowsTheCluster(t *testing.T) {
	if testing.Short() || os.Getenv("DATABASE_URL") != "" {
		t.Skip("needs the local cluster: not run with -short or with DATABASE_URL set")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	c, err := New(".")
	if err != nil {
		t.Fatal(err)
	}
	admin, err := c.Ensure(ctx)
	if err != nil {
		t.Fatal(err)
	}
	const db = "devdb_replica_test"
	conn := connect(t, admin)
	conn.Exec(ctx, "DROP DATABASE IF EXISTS "+db+" WITH (FORCE)")
	if err := CreateDatabase(ctx, admin, db); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Exec(context.Background(), "DROP DATABASE IF EXISTS "+db+" WITH (FORCE)") })

	slots := func() int {
		var n int
		if err := conn.QueryRow(context.Background(), `SELECT count(*) FROM pg_replication_slots WHERE slot_name = 'tripgraph_replica_devdbtest'`).Scan(&n); err != nil {
			t.Fatal(err)
		}
		return n
	}
	t.Cleanup(func() { // after Remove
		if n := slots(); n != 0 {
			t.Errorf("the cluster keeps the removed replica's slot")
		}
	})
	r, err := c.NewReplica(ctx, "devdbtest")
	if err != nil {
		t.Fatal(err)
	}
	if slots() != 1 {
		t.Fatal("the replica has no slot on the cluster: the cluster may drop WAL it has not received")
	}
	t.Cleanup(func() {
		if err := r.Remove(context.Background()); err != nil {
			t.Error(err)
		}
	})
	primary := connect(t, replaceDB(admin, db))
	if _, err := primary.Exec(ctx, "CREATE TABLE t (x int); INSERT INTO t VALUES (42)"); err != nil {
		t.Fatal(err)
	}
	standby := connect(t, r.URL(db))
	var inRecovery bool
	if err := standby.QueryRow(ctx, "SELECT pg_is_in_recovery()").Scan(&inRecovery); err != nil || !inRecovery {
		t.Fatalf("the replica is in recovery: %v, %v", inRecovery, err)
	}
	waitFor(t, func() bool {
		var x int
		return standby.QueryRow(ctx, "SELECT x FROM t").Scan(&x) == nil && x == 42
	})
	if _, err := standby.Exec(ctx, "INSERT INTO t VALUES (1)"); err == nil {
		t.Fatal("the replica took a write")
	}
	standby.Close(ctx)

	pid := r.PID()
	if err := r.Stop(ctx); err != nil {
		t.Fatal(err)
	}
	if alive(pid) {
		t.Fatalf("the replica's process %d still runs after Stop", pid)
	}
	if _, err := pgx.Connect(ctx, r.URL(db)); err == nil {
		t.Fatal("a stopped replica took a connection")
	}
	if _, err := primary.Exec(ctx, "INSERT INTO t VALUES (43)"); err != nil {
		t.Fatal(err)
	}
	if err := r.Start(ctx); err != nil {
		t.Fatal(err)
	}
	again := connect(t, r.URL(db))
	waitFor(t, func() bool {
		var n int
		return again.QueryRow(ctx, "SELECT count(*) FROM t").Scan(&n) == nil && n == 2
	})
}

func connect(t *testing.T, url string) *pgx.Conn {
	t.Helper()
	conn, err := pgx.Connect(context.Background(), url)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close(context.Background()) })
	return conn
}

// replaceDB is url with another database.
func replaceDB(raw, db string) string {
	u, err := url.Parse(raw)
	if err != nil {
		panic(err)
	}
	u.Path = "/" + db
	return u.String()
}

func waitFor(t *testing.T, ok func() bool) {
	t.Helper()
	for range 300 {
		if ok() {
			return
		}
		time.Sleep(50 * time.Millisecond)
	}
	t.Fatal("the replica did not catch up within 15 s")
}
