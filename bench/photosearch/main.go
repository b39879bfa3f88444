// Command photosearch measures searchPhotosAcrossAlbums on a big album set:
// the latency of store.SearchPhotosPage for a few terms with the search's
// indexes, then with them dropped (a sequential scan), and the plans
// PostgreSQL chooses. Seed first:
//
//	tripgraph seed --photos 1000000
//	DATABASE_URL=… go run ./bench/photosearch
//
// With -seq-runs it drops and recreates the search indexes
// photos_search_prefixes and photos_search_pairs: run it on a benchmark
// database only.
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/tripgraph/tripgraph/config"

	"github.com/tripgraph/tripgraph/store"
	"github.com/tripgraph/tripgraph/textfold"
	"github.com/tripgraph/tripgraph/tripdata"
)

var searchIndexes = []string{"photos_search_prefixes", "photos_search_pairs"}

func main() {
	cfg, err := config.Load(os.Environ(), "")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	dbURL := flag.String("db", cfg.Database.URL, "the database (default $DATABASE_URL)")
	user := flag.String("user", "demo", "whose photos to search")
	runs := flag.Int("runs", 200, "timed searches per term with the index")
	seqRuns := flag.Int("seq-runs", 0, "timed searches per term without the index (it is dropped, then rebuilt: minutes at 1M photos); 0 skips them")
	terms := flag.String("terms", "Belém,aniversário da Vivi,tokyo,sunset at,praia,rio,Rio de Janeiro", "comma-separated search terms")
	flag.Parse()
	if err := run(context.Background(), *dbURL, *user, strings.Split(*terms, ","), *runs, *seqRuns); err != nil {
		fmt.Fprintln(os.Stderr, "photosearch:", err)
		os.Exit(1)
	}
}

func run(ctx context.Context, dbURL, userName string, terms []string, runs, seqRuns int) error {
	st, err := store.Open(ctx, dbURL)
	if err != nil {
		return err
	}
	defer st.Close()
	u, err := st.Accounts.UserByName(ctx, userName)
	if err != nil {
		return err
	}
	var photos int
	if err := st.Pool.QueryRow(ctx, `SELECT count(*) FROM photos WHERE user_id = $1`, u.ID).Scan(&photos); err != nil {
		return err
	}
	if _, err := st.Pool.Exec(ctx, `ANALYZE photos`); err != nil {
		return err
	}
	fmt.Printf("%d photos of %s; limit 50; %d runs per term with the index, %d without\n\n", photos, userName, runs, seqRuns)

	// How common each term is: every match, not capped (a sequential
	// scan), and every photo that contains it, inside words too.
	matches, contain := map[string]int{}, map[string]int{}
	for _, term := range terms {
		var n, c int
		if err := st.Pool.QueryRow(ctx, `SELECT count(*) FILTER (WHERE regexp_like(search_text, $3)), count(*)
			FROM photos WHERE user_id = $1 AND strpos(search_text, tg_fold($2)) > 0`,
			u.ID, term, textfold.WordStartRegexp(textfold.Fold(term))).Scan(&n, &c); err != nil {
			return err
		}
		matches[term], contain[term] = n, c
	}

	withIndex := map[string][]time.Duration{}
	for _, term := range terms {
		if withIndex[term], err = measure(ctx, st, u.ID, term, runs); err != nil {
			return err
		}
	}
	for _, term := range terms {
		plan, err := explain(ctx, st, u.ID, term)
		if err != nil {
			return err
		}
		fmt.Printf("EXPLAIN ANALYZE with the index (%q):\n%s\n", term, plan)
	}

	withoutIndex := map[string][]time.Duration{}
	if seqRuns > 0 {
		if withoutIndex, err = withoutTheIndex(ctx, st, u.ID, terms, seqRuns); err != nil {
			return err
		}
	}

	fmt.Println("| term | matches (% of photos) | contain it | total | totalIsLowerBound | p50 | p95 | p99 | p50 seq scan | p95 seq scan |")
	fmt.Println("|---|---:|---:|---:|---|---:|---:|---:|---:|---:|")
	for _, term := range terms {
		r, err := st.Catalog.SearchPhotosPage(ctx, tripdata.PhotoSearch{UserID: u.ID, Term: term, Limit: 50})
		if err != nil {
			return err
		}
		a, b := withIndex[term], withoutIndex[term]
		fmt.Printf("| %s | %d (%.2f%%) | %d | %d | %v | %s | %s | %s | %s | %s |\n", term, matches[term], 100*float64(matches[term])/float64(max(photos, 1)),
			contain[term], r.Total, r.More, ms(a, 50), ms(a, 95), ms(a, 99), ms(b, 50), ms(b, 95))
	}
	return nil
}

// withoutTheIndex drops the search index, times seqRuns searches for each
// term and shows the plan of the first, then recreates the index.
func withoutTheIndex(ctx context.Context, st *store.Store, userID string, terms []string, seqRuns int) (map[string][]time.Duration, error) {
	defs, err := dropIndexes(ctx, st)
	if err != nil {
		return nil, err
	}
	out := map[string][]time.Duration{}
	for _, term := range terms {
		if out[term], err = measure(ctx, st, userID, term, seqRuns); err != nil {
			restore(ctx, st, defs)
			return nil, err
		}
	}
	seqPlan, err := explain(ctx, st, userID, terms[0])
	if err != nil {
		restore(ctx, st, defs)
		return nil, err
	}
	fmt.Printf("EXPLAIN ANALYZE without it:\n%s\n", seqPlan)
	took, err := restore(ctx, st, defs)
	if err != nil {
		return nil, err
	}
	fmt.Printf("recreated the search index in %s\n\n", took.Round(time.Millisecond))
	return out, nil
}

// measure times runs searches for term, after one untimed warm-up.
func measure(ctx context.Context, st *store.Store, userID, term string, runs int) ([]time.Duration, error) {
	q := tripdata.PhotoSearch{UserID: userID, Term: term, Limit: 50}
	if _, err := st.Catalog.SearchPhotosPage(ctx, q); err != nil {
		return nil, err
	}
	out := make([]time.Duration, 0, runs)
	for range runs {
		start := time.Now()
		if _, err := st.Catalog.SearchPhotosPage(ctx, q); err != nil {
			return nil, err
		}
		out = append(out, time.Since(start))
	}
	return out, nil
}

// explain shows the plan of the query store.SearchPhotosPage runs.
func explain(ctx context.Context, st *store.Store, userID, term string) (string, error) {
	sql, args, err := st.Catalog.SearchPhotosQuery(ctx, tripdata.PhotoSearch{UserID: userID, Term: term, Limit: 50})
	if err != nil {
		return "", err
	}
	rows, err := st.Pool.Query(ctx, `EXPLAIN (ANALYZE, BUFFERS, COSTS OFF) `+sql, args...)
	if err != nil {
		return "", fmt.Errorf("explaining: %w", err)
	}
	defer rows.Close()
	var b strings.Builder
	for rows.Next() {
		var line string
		if err := rows.Scan(&line); err != nil {
			return "", err
		}
		b.WriteString("    " + line + "\n")
	}
	return b.String(), rows.Err()
}

func dropIndexes(ctx context.Context, st *store.Store) ([]string, error) {
	var defs []string
	for _, name := range searchIndexes {
		var def string
		if err := st.Pool.QueryRow(ctx, `SELECT indexdef FROM pg_indexes WHERE indexname = $1`, name).Scan(&def); err != nil {
			return defs, fmt.Errorf("reading index %s: %w", name, err)
		}
		if _, err := st.Pool.Exec(ctx, `DROP INDEX `+name); err != nil {
			return defs, fmt.Errorf("dropping index %s: %w", name, err)
		}
		defs = append(defs, def)
	}
	return defs, nil
}

func restore(ctx context.Context, st *store.Store, defs []string) (time.Duration, error) {
	start := time.Now()
	for _, def := range defs {
		if _, err := st.Pool.Exec(ctx, def); err != nil {
			return 0, fmt.Errorf("recreating an index (%s): %w", def, err)
		}
	}
	_, err := st.Pool.Exec(ctx, `ANALYZE photos`)
	return time.Since(start), err
}

// ms is the p-th percentile of d in milliseconds, or "–" for no runs.
func ms(d []time.Duration, p int) string {
	if len(d) == 0 {
		return "–"
	}
	s := slices.Clone(d)
	slices.Sort(s)
	return fmt.Sprintf("%.2f ms", float64(s[min(len(s)-1, len(s)*p/100)].Microseconds())/1000)
}
