package prose

import (
	"fmt"
	"testing"
)

func TestSettings(t *testing.T) {
	for in, want := range map[string]string{
		"The project still declares requires-python >=3.9.":                                     "map[requirespython:3.9]",
		"Let's raise requires-python to 3.12 so we can use tomllib":                             "map[requirespython:3.12]",
		"required_version is now \"~> 1.8.3\" instead of 1.7.5":                                 "map[requiredversion:1.8.3]",
		"bump max_conns from 20 to 50":                                                          "map[maxconns:50]",
		"TORCH_CUDA_ARCH_LIST in setup.py is now \"8.0;9.0\"":                                   "map[torchcudaarchlist:8.0;9.0]",
		"CreateBooking runs with MemorySize 1536 in template.yaml":                              "map[memorysize:1536]",
		"We run PostgreSQL 16 and CreateBooking 2 times":                                        "map[]",
		"pool.size is 8 and retry-limit = 3":                                                    "map[poolsize:8 retrylimit:3]",
		"We edited config/app.yaml and main.go 2 times":                                         "map[]",
		"The API listens on port 8081":                                                          "map[]",
		"The redis connection's retry_after stays at 90 as it is in config/queue.php":           "map[retryafter:90]",
		"'retry_after' => 300,":                                                                 "map[retryafter:300]",
		"DOWNLOAD_DELAY in settings.py is 1.5 for now.":                                         "map[downloaddelay:1.5]",
		"the redis connection's retry_after was 90":                                             "map[]",
		"readTimeout(45, TimeUnit.SECONDS)":                                                     "map[readtimeout:45]",
		"maxRetries = 5":                                                                        "map[maxretries:5]",
		"`tank/enc/photos` uses recordsize=1M, and ashift=12 at creation.":                      "map[ashift:12 recordsize:1M]",
		"the log shows status=503 and pid=4312":                                                 "map[]",
		"GET /api/items?page=2 returned 200":                                                    "map[]", // a query string sets nothing
		"And set the okhttp read timeout to 20 seconds, the default 10 is too short":            "map[readtimeout:20]",
		"raised the retry delay to 30 s":                                                        "map[retrydelay:30]",
		"the timeout is 30 seconds":                                                             "map[]",
		"Move the link to 921600 on both sides":                                                 "map[]",
		"retry_after is set to 300":                                                             "map[retryafter:300]",
		"`DEFMT_LOG` is set to info in the same file's [env] section":                           "map[defmtlog:info]",
		"Changed default_filter to .lanczos3; the resize tests pass.":                           "map[defaultfilter:lanczos3]",
		"Default_filter is .mitchell now, for photos and screenshots alike":                     "map[defaultfilter:mitchell]",
		"fct_orders has `unique_key='order_id'`":                                                "map[]",
		"the cache lives in config.yaml":                                                        "map[]",
		"Added node_modules to .gitignore so the build context stays small":                     "map[]",
		"Moved nvim-config to .config/nvim":                                                     "map[]",
		"I've had DEFMT_LOG on debug in the cargo config since friday":                          "map[defmtlog:debug]",
		"let's cut TRANSFORM_WH down to SMALL":                                                  "map[transformwh:small]",
		"LOG_LEVEL=debug":                                                                       "map[loglevel:debug]",
		"with snapshot.mode initial so the existing rows come across first":                     "map[snapshotmode:initial]",
		"The source connector starts with snapshot.mode no_data; backfills go":                  "map[snapshotmode:no_data]",
		"plugin.name pgoutput, slot orders_slot":                                                "map[pluginname:pgoutput]",
		"decimal.handling.mode=precise turns NUMERIC into bytes":                                "map[decimalhandlingmode:precise]",
		"Please don't use vim.notify for our errors; vim.notify gets swallowed":                 "map[]",
		"the server.port setting is read first":                                                 "map[]",
		"Specs run with mini.test instead":                                                      "map[]",
		"config/sidekiq.yml is large":                                                           "map[]",
		"Both targets run with 4 threads on TRANSFORM_WH":                                       "map[targetthreads:4]",
		"and both targets use 8 threads":                                                        "map[targetthreads:8]",
		"The pool is only 10 connections":                                                       "map[poolconnections:10]",
		"300 requests per rolling 60 seconds per key":                                           "map[requestsrate:5]",
		"Each key now gets 600 requests per rolling minute":                                     "map[requestsrate:10]",
		"we made 3 connections":                                                                 "map[]",
		"I cut spark.sql.shuffle.partitions to 64 on the job cluster.":                          "map[sparksqlshufflepartitions:64]",
		"The schema lives in db/schema.sql and has 3 tables.":                                   "map[]",
		"Store the items in Postgres: host db-crawl-01, port 5432, database pricewatch":         "map[dbcrawl0:1 postgreshost:db-crawl-01 postgresport:5432]", // the code key splits off a last digit (db-crawl-0: 1), as it does for macos-14 → macos-15
		"the default DSN is postgresql://pricewatch@pg.internal.pricewatch.io:6432/pricewatch.": "map[pginternalpricewatchio:6432 postgreshost:pg.internal.pricewatch.io postgresport:6432]",
		"Redis runs in compose on port 6379; Postgres stays on the host.":                       "map[redisport:6379]",
		"Lambda has python3.13 and I'd like the whole project on it.":                           "map[]",
		"Please write tests for Detect-BitLocker.ps1.":                                          "map[]",
		"Two BOOKING items with booked_at 18 ms apart.":                                         "map[]",
		"Set pool_size=10 apart from the importer.":                                             "map[poolsize:10]",
		"MAX_WORKERS=8 apart from CI.":                                                          "map[maxworkers:8]",
		"Eight 20 hl unitanks FV1-FV8; GVL_Cellar.st has FV1-FV4.":                              "map[]", // a range of names, no key FV1-FV set to 8
		"Connecting to db-crawl-01:5432, database pricewatch.":                                  "map[dbcrawl01:5432 postgreshost:db-crawl-01 postgresport:5432]",
		"Postgres is hosted on RDS since v15.":                                                  "map[]",
		"Postgres 16 runs on the same host as the API.":                                         "map[]",
		"Redis sits next to Postgres, port 5433 on the host.":                                   "map[]", // whose port is not told
		"Runs on 192.168.1.20:8081 and localhost:5432.":                                         "map[]",
		// The mail server a project submits through, by its port.
		"Mails go out through our own server, mail.rc-weserstein.de on port 587, sender kasse@rc-weserstein.de.": "map[smtphost:mail.rc-weserstein.de smtpport:587]",
		"Mails leave through mail.rc-weserstein.de:587 with STARTTLS.":                                           "map[mailrcwesersteinde:587 smtphost:mail.rc-weserstein.de smtpport:587]",
		"The relay mx1.example.org:25 forwards to mx2.example.org:25.":                                           "map[mx1exampleorg:25 mx2exampleorg:25]", // a relay's hops: no one server of a kind
	} {
		if got := fmt.Sprint(Settings(in)); got != want {
			t.Errorf("Settings(%q) = %s, want %s", in, got, want)
		}
	}
}

func TestNamed(t *testing.T) {
	for in, want := range map[string]string{
		"The profile in ~/.databrickscfg is called lakehouse-stg.":                          "map[profile:lakehouse-stg]",
		"fyi we got a fresh workspace: adb-77.azuredatabricks.net, profile lakehouse-stg2.": "map[profile:lakehouse-stg2 workspace:adb-77.azuredatabricks.net]",
		".dbx/project.json now uses the lakehouse-stg2 profile":                             "map[profile:lakehouse-stg2]",
		"namespace: billing-prod": "map[namespace:billing-prod]",
		"The branch is main":      "map[]",
		"The cluster has 3 nodes": "map[]",
	} {
		if got := fmt.Sprint(Named(in)); got != want {
			t.Errorf("Named(%q) = %s, want %s", in, got, want)
		}
	}
	for _, tc := range []struct {
		older, newer string
		want         bool
	}{
		{"profile lakehouse-stg", "profile lakehouse-stg2", true},
		{"the acme-raw bucket", "bucket acme-raw-v2", true},
		{"profile lakehouse-dev", "profile lakehouse-prod", false},
		{"profile lakehouse-stg", "namespace lakehouse-stg2", false},
		{"profile lakehouse-stg", "profile lakehouse-stg", false},
		{"the orders-events topic", "topic orders-events-dlq", false},
		{"database app_dev", "database app_dev and database app_dev_ci", false},
		{"a 2048-bit key under selector s2026a", "a new key under selector s2026b", true},
		{"pool blue-1", "pool blue-2", true},
		{"namespace prod-eu", "namespace prod-us", false},
	} {
		if got := Renamed(Named(tc.older), Named(tc.newer)); got != tc.want {
			t.Errorf("Renamed(%q, %q) = %v", tc.older, tc.newer, got)
		}
	}
}
