package summarize

import (
	"sort"
	"strings"

	"github.com/cairn-mem/cairn/internal/lazyre"
	"github.com/cairn-mem/cairn/internal/prose"
	"github.com/cairn-mem/cairn/internal/summarize/telling"
)

// The extractive summarizer sorts statements by what kind of statement
// they are: a root cause explains a failure, a decision commits to a
// course (and may give a reason or name what it was chosen over), a
// preference is a standing instruction of the user, an environment fact
// states where or how something runs, an open item names work left. Each
// kind is recognised by the families of phrasing people use for it, not
// by one keyword: the patterns below are those families. A ’ counts as
// a ' (see fromText).
var (
	// hedge marks a guess, not a finding.
	hedge = lazyre.New(`(?i)\b(might|maybe|perhaps|possibly|probably|i think|i believe|i suspect|i guess|seems|appears to|could be|not sure|likely|unclear|wonder|let me (check|see|verify|look)|(check|see|find out|know|verify|test|confirm|ask|decide|tell|sure) whether|just to (check|make sure|be sure|rule out))\b`)
	// narrate is the agent talking about its own next step or reacting.
	narrate = lazyre.New(`(?i)^(let me|let's (check|see|look|verify|run|read|try to find)|now,? (i|let)|i'll (now |first |then )?(check|look|read|run|start|open|search|grep|inspect|examine|verify|fix|update|add|create|write|edit|make|implement|investigate|review|test|try)|i will|i'm going to|i am going to|i need to|next,? (i|let)|first,? (i|let)|then,? i|okay|ok\b|great|perfect|excellent|good|sure|alright|got it|understood|thanks|thank you|here's|here is|looking at|i see|i can see|i found|i've|i have|i updated|i added|i changed|i created|i removed|i renamed|i ran|running|checking|reading|searching)\b`)
	// chitchat is a prompt that asks for nothing.
	chitchat = lazyre.New(`(?i)^(\s*(ok(ay)?|k|thanks?( you)?|thx|ty|cool|nice|great|perfect|awesome|good|fine|yes|yep|yeah|yup|sure|no|nope|go( on| ahead)?|continue|proceed|carry on|keep going|do it|please|pls|sounds (good|right|great|fine)|that's fine|(good )?morning|hi|hello|hey|lgtm|looks good|makes sense|(?:i )?agreed?(?: (?:on|to|with))?(?: all(?: of)?)?(?: (?:it|that|this|them|those|everything|both|the (?:plan|lot|above|rest)))?|right|alright|got it|nice work|good job|well done|that works|works|done|next|and|then|now|so|!|\.|,)\s*)+[.!?]*\s*$`)

	rootCause = lazyre.New(`(?i)(\b(dropped|lost|skipped|duplicated|missed|leaked|overflowed|truncated|stalled|blocked|rejected|ignored|double-counted|mismatched|diverged|drifted|regressed|degraded|spiked|returned (nil|null|empty|wrong|the wrong|stale|no)|got (stuck|lost|dropped|reset)|go(?:es)? (?:negative|wrong)|went (?:negative|wrong))\b[^.;]{0,40}\b(because|since|due to)\b|\bwhat (broke|caused|triggered|killed|slowed down|was breaking|was causing)\b|^(i )?(found|see|spotted|got) (it|the (issue|problem|bug|culprit|cause))( now)?\s*[:—-]\s*\S+|^(the )?(issue|problem|bug|culprit|cause|root cause|diagnosis)\s*:\s*\S+|^what (happened|went wrong|broke)\s*:\s*\S+|,\s+hence (the|a|an|all|every|those|these|our|its)\b[^.;]{0,40}\b(errors?|failures?|crash(es)?|bugs?|timeouts?|mismatch(es)?|shift|leaks?|exceptions?|stutters?|drift|duplicates?|lag|outage|warnings?|resets?|[45]\d\d)\b|\b(fail(s|ed|ing)?|br(oke|eaks|eaking)|crash(es|ed|ing)?|hang(s|ing)?|hung|times? out|timed out|timing out|error(s|ed|ing)?|flak(y|ed|ing)|panick?(s|ed|ing)?|(was|were|is|are) (wrong|off|broken|slow|empty|missing|duplicated))\b[^.;]{0,30}\b(because|since|due to)\b|\b(was|were|is|are) (all |only |just |partly )?because\b|\bwhy (it|this|that|the [\w-]+( [\w-]+)?) (failed|fails|broke|breaks|crashed|crashes|hung|hangs|was|were|didn't|did not|wasn't)\b[^?]*:|\bturn(s|ed) out\b|\bthe (real |actual |underlying |root )?(culprit|cause|problem|issue|bug|reason it \w+|reason)( here| was that| is that)? (was|is|turned out|came from|lies)\b|\broot cause\b|\b(flakiness|flakes|failures?|crash(es)?|errors?|bug|leak|slowness|latency|timeouts?|regression|hang|panic|deadlock|race|mismatch|discrepancy|drift|problem|issue|breakage|outage|404s?|500s?|off-by-one|duplicate[sd]?|gaps?|resets?|garbage|spikes?)\b[^.;]{0,40}\b(came|comes|stems|stemmed|results|resulted|originates|originated) from\b|\b(was|is|were|are) (all |entirely |partly )?due to\b|\bthe (race|deadlock|leak|regression|panic|crash|bug|problem|issue|error)( condition)? (is|was) (in|on|at|from)\b|\b(was|were|is|are|got) (all )?(caused|triggered) by\b|\b(happen(s|ed)?|fail(s|ed)?|broke|breaks|crash(es|ed)?|hung|hangs|timed out|times out|flak(y|ed)|panick?(s|ed)?|errored|leaked|deadlocked|returned \w+) (only )?(because|since|due to|whenever|when)\b|\bbecause of (a|an|the) (bug|typo|race|missing|stale|wrong|bad|broken|leftover|cached)\b|\bthe fix (was|is) (to|that)\b|\b(forgot|forgetting|neglected) to\b|\bnever (got|gets|being|was|were) \w+ed\b|\b(wasn't|weren't|was not|were not) (being |actually |properly |ever )?\w+ed\b|\boff[- ]by[- ]one\b|\brace (condition )?(in|between|on)\b|\b(was|were) (nil|null|undefined|empty|zero|stale|missing|wrong|shadowed|swallowed|ignored|cached|truncated|overwritten|reused|shared|unset|misspelled|reversed|inverted|swapped|doubled|double-counted)\b|\b(was|were)\b[^.;]{1,60}\binstead of\b|\bthat'?s why\b|\bwhich (meant|caused|made|broke)\b|\b(that|which|this) (then )?(exhausted|crashed|killed|overflowed|took down|blew up|filled up|starved|double-counted)\b|, so (every|all|each|the|nothing|no|it|they)\b[^.;]{0,80}\b(was|were|looked|got|became|failed|broke|returned|showed|ended|counted|ran)\b|\bwhich is why\b|\bthat explains\b|\bexplains (the|why)\b)`)

	decisionCue = lazyre.New(`(?i)(^so,? (?:the |our |all |every )[\w -]{2,50}\b(?:moves|switches|migrates) (?:over )?to (?:(?-i:[A-Z])|` + "`" + `)|^(?:we|i) (?:ask|use|keep|run|store|send|show|call|poll|cache|log|skip|pin|build|deploy|ship|serve|sign)\b[^.;]{1,80}\bfor now[.!]?$|\bdecided\b|\bwent with\b|^(nah|no|nope|ok|okay)?,? ?(skip|drop|ditch|scrap|forget) (the |that |this )?[\w/-]+|\bagreed (to|on|that)\b|\bwe('ll| will|'re going to| are going to) (now |just |instead |rather )?(trigger|expose|generate|publish|emit|batch|queue|poll|stream|index|hash|encrypt|sign|validate|compute|render|wrap|route|proxy|mount|bundle|compile|shard|partition|version|namespace|bump|upgrade|downgrade|remove|delete|rename|inline|extract|defer|gate|flag|feature-flag|backfill|cap|throttle|debounce|paginate|lock|own|accept|reject|require|allow|block|ignore|support|target|standardi[sz]e|consolidate|centrali[sz]e|containeri[sz]e|host|run|keep)\b|\bdecision( is|:)|\bwe('ll| will| are going to|'re going to| should| shall| can just) (use|go|switch|stick|keep|move|adopt|store|put|run|rely|pick|drop|replace|make|build|treat|model|ship|deploy|serve|handle|split|merge|migrate|pin|vendor|do|cache|claim|send|log|return|retry|skip|limit|read|write|call|leave)\b|\blet'?s (use|go with|switch|stick|keep|move|adopt|store|put|pick|drop|replace|make|just|rely|pin|vendor|split|cache|ship|leave|stay|not)\b|\bgo(ing)? with\b|\bswitch(ed|ing)? (it |this |that |them |over |everything |the \w+ )?(to|from)\b|\bsettled on\b|\bopt(ed|ing) (for|to)\b|\b(chose|chosen|choose|picked|picking)\b|\bstick(ing)? (with|to)\b|\b(we're|we are|i'm) (dropping|ditching|replacing|removing|moving|switching|keeping|sticking|going)\b|\breplac(e|ed|ing) \S+( \S+)?( \S+)? with\b|\bno longer (use|need|using)\b|\b(won't|will not|not going to) use\b|\bafter all\b|\bthe plan is\b|\b\w+ it is[.!]?$|^[\w./-]+ it is,? (?:then\b|for\b))`)
	// choseOver is the agent's report of a choice against a named
	// alternative: "I keyed refunds by id rather than a counter".
	// justifiedOver is a choice against a named alternative with its
	// reason: "it compiles with -std=ibm rather than the default
	// dialect, because BILL040 depends on IBM's truncation".
	justifiedOver = lazyre.New(`(?i)\b(rather than|instead of|in favou?r of)\b[^.;:]{0,120}(\b(?:because|since|so that)\b|:\s+\S)`)
	choseOver     = lazyre.New(`(?i)^(so )?(i|we) (\w+ed|chose|went with|made|kept|built|wrote|put|set|took)\b[^.;:]{0,120}\b(rather than|instead of|in favou?r of)\b`)
	// lookedAt is a look, a check or a try, which chooses nothing.
	lookedAt = lazyre.New(`(?i)^(so )?(i|we) (looked|checked|tried|tested|searched|grepped|opened|compared|inspected|printed|logged|timed|profiled|watched|used)\b`)
	// decisionWeak counts in what the user asks for, or in a plan.
	decisionWeak = lazyre.New(`(?i)(\bin favou?r of\b|\b(rather than|instead of)\b|^(use|prefer|keep|store|switch|move|replace|make|put|drop|pin|return) )`)
	// preferOver names the alternative a user turns down: "rather than
	// X", "instead of X".
	preferOver = lazyre.New(`(?i)\b(in favou?r of|rather than|instead of)\b`)
	planMarker = lazyre.New(`(?i)(^(use|prefer|keep|store|switch|move|replace|make)\s|\b(we|we'll|let's|i'll|i will|we should|should use|i switched|i replaced|i changed)\b)`)

	reasonStart = lazyre.New(`(?i)^(because|since|otherwise|the reason|that way|this way|this means|that means|[\w' -]{1,40} (stays|stay|remains|remain) (flat|constant|bounded|low|small|fast|stable|the same|under|below|within)\b|(it|this|that|they)('s| is| are|'re) (faster|simpler|safer|cheaper|already|enough|more|less|the only|lighter|smaller|built|overkill|too|what)|(it|this|that|they) (gives|keeps|avoids|lets|means|handles|supports|works|has|have|doesn't|does not|won't|will|already|saves|needs)|its [\w-]+(?: [\w-]+)? (?:lets?|gives?|keeps?|makes?|means|handles?|supports?|avoids?|saves?)\b|(the )?(main |big |only )?(advantage|benefit|upside|downside|problem with|issue with|catch)\b)`)

	// symptom is a sentence that says what went wrong, which the next
	// sentence may explain.
	symptom = lazyre.New(`(?i)\b(crash(es|ed)?|fail(s|ed)?|broke|breaks|hung|hangs|timed out|times out|doubled|tripled|spiked|went down|took (\S+ ){1,4}down|out of memory|OOM|ran out of|(was|were|is|are) (wrong|off|slow|empty|missing|duplicated|too (high|low|slow|big)))\b`)
	// causeMech explains a failure told just before it: what the code
	// did (past tense) and how that led there. "The whole file was
	// concatenated into one string until the heap limit was hit."
	causeMech = lazyre.New(`(?i)\b(was|were|had|did|didn't|got|kept|never)\b[^?]{0,200}\b(until|so|because|since|whenever|every time|each time|instead of|before|which|and then)\b`)
	// openLabel heads an open item: "Still to do: …", "Open item: …".
	openLabel = lazyre.New(`(?i)^(open (item|point|issue|question|task)s?|open(?: (?:from|as of|since|for) (?:today|tonight|this session|now|later|next time))?|still (to do|needed|open|pending|left|missing)|remaining( for (next time|later|tomorrow|the next session))?|left (to do|for next time|for later|for (another|the next) (day|session|time))|to-?do|next up|up next|next)\s*[:—–]\s*`)
	// reasonLabel is a label before a reason said after what it
	// justifies: "Why both:", "Why bother at all:", "The reason:".
	reasonLabel = lazyre.New(`(?i)^(why( [\w'-]+){0,4}|the (main |real |whole |only )?(reason|rationale|point|idea|motivation)( for (it|this|that|both|them|\w+))?( is| was)?|reason|rationale)\s*[:—–]\s*`)
	// reasonsFor gives the reasons for a choice after naming it: "the
	// doc records the reasons we're staying on Playwright: …".
	reasonsFor = lazyre.New(`(?i)\bthe (?:main |real )?reasons? (?:why )?((?:we're|we are|we|i'm|i am) (?:not )?(?:staying|sticking|keeping|going|using|choosing|picking|moving|switching|dropping|leaving|building|running)\b[^:;.]{2,60}?)\s*:\s+(\S.{10,})$`)
	// reasonLead opens a sentence that justifies the one before it.
	reasonLead = lazyre.New(`(?i)^(that way|this way|this means|that means|which means|otherwise|so that|the point is|the upshot is|without (it|this|that|them),)\b`)
	// nowStateRE is a report of what was done as the state it leaves.
	nowStateRE = lazyre.New(`(?i)(^now,? (the |a |an |it |they |each |every |all |\S+ )|\b(is|are) now\b|\bnow (\w+s|is|are)\b|\b(\w+s|is|are) \S+( \S+)? now[.,;]|\bswitched (\S+ ){0,4}(to|over to)\b)`)

	rejectCue = lazyre.New(`(?i)(\b(an|the|one|another|the other) (\w+ )?(alternative|option) (would have been|would be|was|is|could be|would have meant)\b(?:[^.;]|\.\w){0,160}\bbut\b|\b(the other|another|a different|one other) (way|approach|route) (would have been|would be|could be|is)\b(?:[^.;]|\.\w){0,160}\bbut\b|\b(we|i) could have\b[^.;]{0,120}\bbut\b|\b(looks|sounds|seems|is|was|would be|would have been) (attractive|tempting|appealing|nice|nicer|simpler|easier|cleaner|quicker|faster|cheaper)( on paper| at first| to write)?,? but\b|\b(i|we) (thought about|considered|looked at)\b(?:[^.;]|\.\w){0,160}\bbut\b|\bwe could,? but\b|^[\w./+-]+(?: (?:and|or) [\w./+-]+)? would (?:save|give|buy|cut|halve|help|be (?:faster|smaller|simpler|cheaper|nicer))\b[^.;]{0,60},? but\b|\bforget (the|about)\b|\bscrap (the|that)\b|\bnot (worth|a good fit)\b|\bover \S+( \S+)? (because|since|as (?:it|it's|they|they're|we|i|the|this|that|its|their|our|there's)\b)|\bdecided against\b|\bruled out\b|\b(i'd|i would|we'd|we would|we should|let's) rule (that|it|this|them) out\b|\b(is|are) out (for (this|that|now|us|here|the reasons?)|here)\b|\b(is|are) out\s*[:—–]|\b(suggested|proposed)\b[^.]{1,100}?(\binstead\b[^.;]{0,10}\bbut\b|;\s*no\b|\s—\s*no\b)|\b(?:i|we|you) rejected\b|\brejected\b[^.;]{0,80}\b(?:in favou?r of|because (?:we|i|it)|since (?:we|i|it))\b|\b(?:i|we) (?:didn't|did not) (?:use|go with|pick|choose|take|add) \S+[^.;]{0,80}\b(?:because|since|as)\b|\b(?:i|we) (?:didn't|did not) (?:use|go with|pick|choose|take|add|do) [\w.-]+:\s+\S|\b(?:i|we) (?:didn't|did not) (?:build|write|make|add|use)\b[^.;]{0,100};\s*(?:that|it|this) would\b|\b(won't|will not|not going to|don't want to|do not want to|shouldn't|no need to|not worth) (use|using|go with|add|adding|pull in|introduce|bring in)\b|\bconsidered\b.{0,60}\bbut\b|\b(we're|we are|i'm) (dropping|ditching|removing|not using)\b|\bdrop(ped|ping)? \S+( \S+)? (after all|in favou?r of)\b|\bno longer (use|using|need)\b|\b(is|would be|was|'s) (overkill|too heavy|too slow|too complex)\b|\b(i'd|i would|we'd|we would) rather not\b|\b(?:i'd|i would|we'd|we would) skip (?:it|that|this|them)\b|\b(?:tried|tested|looked at|played with)\b[^.;]{0,80}\band (?:i'd|i would|we'd|we would) (?:leave|drop|skip) (?:it|that|them)\s*(?:[:;,—–.]|$)|\b(?:i'd|i would|we'd|we would) pass on\b|\b(i'd|i would|we'd|we would) (advise|recommend|argue|vote) against\b|\bi (wouldn't|would not) recommend\b|\b(i'd|i would|we'd|we would|we should|let's) (keep|leave) [^.;:]{1,60} out of (it|this|that|here|the \w+)\b|\b(is|are) out(,? (as well|too|either))?,? (since|because)\b|\b(i|we) (wouldn't|would not) (use|go with|pick|choose|add|adopt|introduce|follow|take|go down)\b|\b(?:i'd|we'd) not (?:use|go with|pick|choose|add|adopt|introduce|bring in|pull in|run)\b|\b(doesn't|does not|wouldn't|would not) fit\s*(:|the bill\b|our case\b)|^(i|we) (didn't|did not) (give|use|add|go with|pick|choose|split|introduce|wrap|guard|protect|lock|put)\b[^.;:]{0,100}(:|—)|\b(chose|decided|opted) not to\b)`)

	prefCue = lazyre.New(`(?i)(\bin \w+[- ]style\b|\bstyle guide\b|\bnaming convention\b|\b(british|american|us|uk) (english|spelling)\b|^no \w+s\b|(?:^|:\s*)no\s(?:[^.;:,]|\.\w){1,50}?\b(?:anywhere|ever|at all)\b|^no (?-i:[A-Z])[\w.+-]*(?: [\w-]+){0,2}[.!]$|\b(?:to be clear|one rule|one more rule|house rule|ground rule)\b[^.:;]{0,40}:\s*(?:no|never|always|don't|do not)\s|\bno (more )?\w+s (in|for|anywhere|ever)\b|\bfrom now on\b|\bgoing forward\b|\bin (the )?future\b|\balways\b|\bnever\b|\bevery time\b|\beach time\b|\bplease (don't|do not|never|always|stop|avoid|keep|make sure|use|prefer|just|remember)\b|\bleave\b[^.;]{1,60}\balone\b|\bdon't ever\b|\bdo not ever\b|\bi'?d (rather|prefer|like you to|like it if)\b|\bi would (rather|prefer|like you to)\b|\bi prefer\b|\bi (really )?(like|want|need) (you|it|them|my|our|all|each|every|short|small|concise|one)\b|\b(drives|driving) me (nuts|crazy|mad|insane|up the wall)\b|\bi (hate|dislike|can't stand|don't like|do not like|don't want|do not want|don't need)\b|\b(it's|it is|that's|that is) (annoying|frustrating|noisy|too verbose|too long|unreadable)\b|\byou keep\b|\bstop \w+ing\b|\bno more\b|\bmake sure (to|you|that|the|it|we|all|every)\b|\bremember to\b|\bkeep (it|them|things|the|commit|commits|answers|responses|changes|messages|prs?|functions|lines|files)\b|\bstick to\b|\byou can (now )?(use|run|do|add|call|start|kick off|touch|keep|have|go back to|work on|edit)\b[^.;]{0,60}\bagain\b|\bforget (what|everything|all) (i|we)( have|'ve)? (said|told you|wrote|asked) about\b|^(prefer|avoid|use|don't|do not|stop|keep|write|name|put)\b|\bonly ever (use|write|run|call|add|put)\b|\b(rules?|conventions?) (for|in) (this|the|our) (repo|repository|project|codebase|workspace)\b|\bone (?:more )?rule from (?:me|my side|my end|us)\b|\b(?:new|one more|another) rule\s*[:—–]|\b(?:feel free|you're free|you are free|you can go ahead and) \w+|\b(?:is|are) (?:fine|ok|okay|allowed) (?:at any (?:hour|time)|any ?time|whenever)\b|\b(?:nothing|nobody|no one)\b[^.;?]{1,60}\bever\b|\b(don't|do not) (hand-|manually )?(use|add|touch|change|modify|commit|push|run|write|create|put|rename|delete|remove|mock|edit|reformat|bump|upgrade)\b)`)
	// convention is a user's statement of how things are done here.
	convention = lazyre.New(`(?i)(\bin (this|the|our) (repo|repository|project|codebase|team|code),? we\b|\bby convention\b|\bthe convention\b|\bour convention\b|\bwe (always|usually|consistently|never) \w+|\bhere we (use|write|put|keep|name|prefer)\b)`)
	// causeIntro announces a root cause in the next sentences: "Found it.",
	// "I see the problem now.", "Here's what happens.", "So it wasn't the
	// cache at all."
	causeIntro = lazyre.New(`(?i)^(?:so,?\s+)?(?:it\s+)?turns out\b[^.,;:]{0,50}\b(?:our (?:own )?(?:doing|fault)|self-inflicted|on us|ours)\W*$|^(?:the|this|that) (?:trace|log|logs|dump|profile|output|stack trace|timeline|capture|pcap|flame graph|core dump|strace|backtrace) (?:explains|shows what happened to|accounts for)\b[^.,;:]*[.:]?$|^(i )?((see|found|spotted) (it|the (issue|problem|bug|culprit|cause|root cause))|got the (issue|problem|bug|culprit|cause|root cause))\b[^.]*[.:!]?$|^(here's|here is) (the|what) (issue|problem|bug|happen(ed|s)|went wrong|(is|'s) going on)\b|^(so )?(it|this|that) (wasn't|was not|isn't|is not) [^.]{1,60}\b(at all|after all)\W*$|^((it's |it is )?(fixed|found it)[,.]? (and )?)?(it|this|that) (was|is) (in )?(the|a|an|our|your) [^,.;]{1,40}, not (in )?(the|a|an|our|your) [^,.;]{1,40}\W*$`)
	// prefAsk is a preference put as a question: "can you stop …?".
	prefAsk = lazyre.New(`(?i)^(can|could|would|will) you (please )?(stop|not|always|never|avoid|quit)\b|\bwhy (do|did|are|would) you (keep|always|still)\b`)
	// weDecided is a decision the user reports, not an instruction.
	weDecided = lazyre.New(`(?i)\b(decided|agreed|settled on|we('ll| will|'re going to| are going to)|let'?s|going with|go with|switched to|opted)\b`)
	prefRule  = lazyre.New(`(?i)\b(from now on|going forward|in (the )?future|always|never|every time|each time|don't ever|do not ever|no more|you keep|stop \w+ing|forget what i said about)\b`)
	oneOff    = lazyre.New(`(?i)\b(for now|this time|right now|yet|today|at the moment|in this (pr|commit|change|file|function)|for this (one|task|change|pr)|just this once|here)\b`)

	envCue = lazyre.New(`(?i)(\baddress(?:es)?\b[^.;]{0,40}\b0x[0-9a-f]+|\b(?:the|its|their|our) [\w -]{2,40}\b(?:becomes|is now) ` + "`" + `[^` + "`" + `]{4,}` + "`" + `|\b(?:publish|subscribe|consume|produce|emit)(?:s|es|d)? (?:[\w-]+ ){0,4}(?:to|from|on) ` + "`" + `|\b\d+(?:\.\d+)?\s?(?:ms|s|sec|seconds|minutes|min|mb|gb|kb|%)\s+(?:instead of|down from|up from|rather than)\s+(?:about\s+|~)?\d|^(?:our |the )?(?:[\w-]+ )?(?:budgets?|targets?|slos?|quotas?)\b[^.;:]{0,60}:\s*[^.;]*\d|^(?:the )?[\w-]+(?: [\w-]+)? (?:in|at) ` + "`" + `?[\w.-]+/[\w./-]+\.\w{1,5}` + "`" + `? [a-z]+s\b|\b(reachable|available|accessible|exposed|running|listening|served|hosted|deployed|published|mapped|forwarded) (at|on|via|from|under|to)\b|\b(deploy|deploys|deployed|build|builds|release|releases|ship|ships|test|tests|lint|run|runs|start|starts|migrate|migrates) (it |them |everything |things )?(with|via|using|through|by running)\b|\b(ship|ships|publish|publishes|release|releases) (it|them) as\b|\b(goes|go|routed|proxied) through\b|\breads? (its |the |their )?\S+( \S+)? from\b|\(default\b|\b(namespace|cluster|region|bucket|zone|account|registry|profile|context)\b|\bmust (be|run|stay|live|sit) (on|in|at|under|inside|behind)\b|\b(runs?|running|lives?|living|listens?|listening|sits?|served|serves?|hosted|deployed|mounted|exposed|installed|located|stored|kept|defined|declared|configured|generated|built|vendored|pinned) (on|in|at|under|from|via|with|to|by|as|inside|behind)\b|\b(is|are|was|were|'s|'re) (on|at|in|under|behind|inside) \S*[0-9/:.` + "`" + `~]|\bpoints? (to|at)\b|\bdefaults? to\b|\b(is|are) set (to|in)\b|\bset to\b|\brequires?\b|\bneeds? (go|node|python|java|ruby|rust|\w+ [0-9v])|\bexpects?\b|\b(we're|we are|it's|it is|is|are|now) (on|using)\b|\b(the (project|repo|repository|app|service|codebase|ci|build|team|backend|frontend)|we|ci) (uses|is using|relies on)\b|\b(is|are) run (with|via|by|using)\b|\brun (it |them |tests |the tests )?(with|via|using)\b|\bmoved to\b|\bbumped (to|from)\b|\bupgraded (to|from)\b|\bdowngraded to\b|\bversion\b|\bthe (\w+ )?(command|port|host|hostname|url|endpoint|path|directory|dir|folder|database|db|bucket|region|cluster|namespace|branch|image|registry|queue|topic|key|id|model|provider|driver|runtime|toolchain|env var|variable) (is|was|for|lives|sits|becomes|is now)\b|\benv(ironment)? var(iable)?s?\b|\b(is|are) (` + "`" + `|/|~|https?:|\d))`)

	// askNow is a user asking for work in this session: "add the test
	// that is still missing" is the request, not an open item.
	askNow = lazyre.New(`(?i)^(ok,? |so,? |now,? )?(please |can you |could you |would you |let's |go ahead and )?(add|fix|make|write|implement|create|update|remove|delete|run|find|look|check|change|move|rename|refactor|debug|investigate|figure|set up|build|deploy|try|do|finish|complete|wire|hook up|clean up)\b`)
	// laterCue is work put off to another time, as users say it.
	laterCue = lazyre.New(`(?i)\b(tomorrow|later|next (time|session|week|month|sprint)|at some point|eventually|remind me|don't forget|todo|to-do|follow[- ]?up|come back to|revisit|for another (day|session|time)|after (that|this)|once \w+)\b`)
	// flagged is the agent raising a problem beside the work it reports
	// ("One more thing I noticed: …", "A gap I want to flag: …"): work
	// left, which a later session may take up, not what the work came to.
	flagged = lazyre.New(`(?i)^(?:one (?:more |other )?thing\b|(?:and )?(?:that|which) reminds me\b|another thing\b|something (?:else )?(?:to (?:know|note|flag|watch)|i noticed)\b|(?:a|one) (?:gap|caveat|catch|risk|problem) (?:i|we|to|left|remains|with)\b|heads[- ]up\b|fyi\b|while i was (?:in )?there,? (?:i )?(?:also )?(?:noticed|saw|found|spotted)\b|(?:while (?:\w+ing|i was \w+ing)(?: \w+)?,? )?i (?:also )?noticed\b|worth (?:knowing|noting|flagging)\b|(?:one )?caveat\b|there(?:'s| is) (?:a |one )?(?:second|another|separate|different|related|further|new|other) (?:problem|issue|bug|error|catch)\b)`)
	openCue = lazyre.New(`(?i)(^open (item|point|issue|question|task)s?\s*:|^open(?: (?:from|as of|since|for) (?:today|tonight|this session|now|later|next time))?\s*:|\b(?:we|you) (?:should|need to|have to|must|'ll have to|will have to) (?:pick|choose|decide|settle on|agree on)\b|^next\s*:|^what(?:'s| is) (?:still )?(?:missing|left)\b|\bkeep (?:it|this|that|them) in mind\b|\bstill (empty|unfinished|incomplete|a stub|stubbed( out)?|unimplemented|untested|wip)\b|\bnext up\b|\bneeds? (?:another|a second|a fresh|a new|one more) (?:run|pass|round|calibration|look|check|test|try)\b|\b(?:we|you) (?:still )?(?:need|want|should (?:add|do|build|fix|tackle)) [^.;]{1,60}\bnext\s*(?:[.!]|$)|\bup next\b|\b(?:stays?|remains?) open\b|\bstill (?:say|says|show|shows|mention|mentions|reference|references|list|lists)\b|\b(?:would|'d|might|could) be worth (?:trying|a try|testing|checking|looking (?:at|into)|measuring)\b|\b(?:i'd|we'd|i would|we would) (?:make|do|tackle|try|take|pick up)(?: it| that| this| them)? next\b|\b(?:has|have|shows?) the same (?:pattern|problem|bug|issue|flaw|mistake)\b|\b(?:is|are) (?:the )?(?:\w+ )?next (?:piece|thing|task|job|bit|item)\b|\b(not|no|don't|won't|isn't|aren't|hasn't|doesn't|skip|without|bother)\b[^.;]{0,60}\byet\b|\b(?:has|have|needs?) to (?:be (?:done|fixed|sorted|solved|addressed|in place)|happen) before\b|\b(?:someone|somebody|a human|an admin) (?:should|needs? to|has to|must|will have to|'ll have to)\b|\bthen (?:it|they|that|this|we) can (?:go|be (?:removed|deleted|dropped|retired))\b|\bwe (?:still )?need (?:a|an)\b[^.;]{0,80}\bbefore\b|[,;]\s*(?:that's|that is|this is|which is) (?:still )?open[.!]?$|\b(couldn't|could not|didn't|did not) (finish|get to|fix|complete|have time)\b|\bstill (times out|timing out|breaks|crashes|hangs|errors|leaks|flakes|throws|can't|cannot|won't|doesn't)\b|\bremind me\b|\bnext (week|month|sprint)\b|\bdon't forget to\b|\bat some point\b|\beventually\b|\btodo\b|\bto-do\b|\bnext steps?\b|\bstill (need|needs|needed|has to|have to|to do|to be|fails|failing|broken|missing|flaky|open|pending|not|doesn't|does not|unclear)\b|\bleft to do\b|^remaining\s*(?:[:—–,]|$|for\b|to do\b|(?:are|is|work|items?|steps?|tasks?|bits?)\b)|\b(?:\d+|one|two|three|four|five|six|several|a few)\s+(?:[\w-]+\s+){0,2}remaining\b(?:\s*[^\s=]|\s*$)|\bremaining\s*(?:[:—–]|(?:work|items?|steps?|tasks?|bits?|issues?|todos?|failures?|tests?|cases?)\b)|\b(?:is|are|still) remaining\b|\bnot yet\b|\bhaven't (yet )?|\bhave not (yet )?|\bblocked (on|by)\b|\bfollow[- ]?up\b|\bopen question\b|\btbd\b|\blater\b|\btomorrow\b|\bnext time\b|\bnext session\b|\bfor another (day|session|time)\b|\b(we'll|we will|i'll|you'll|will) (still )?need to\b|\bfill in (?:the|your) (?:real|actual|right|correct)\b|\b(?:i|we)(?:'ve| have)? made up (?:the|an?|that|this)\b|^(?:to [\w-]+(?: [\w-]+){0,3},\s*)?(?:you(?:'ll)? (?:need|have|want) to\s+)?(?:run|re-?run|apply|trigger|execute|re-?export|re-?deploy|re-?import)\b[^.;]{0,80}\b(?:once(?:\s+(?:with|in|on|against|more|now|so|before|after|to|and)\b|\s*[,.;]|\s*$)|one more time)|\b(?:will|'ll) (?:still |also )?need (?:re)?(?:port|updat|upgrad|rewrit|fix|chang|migrat|work|replac|adjust|revisit|clean|test|review)\w*ing\b|\bwe should also\b|\bneeds? (more|further|to be)\b|\b(is|are|still|remains?|left|stays?)\s+pending\b|\bpending([.:]|$| (review|approval|merge|sign-?off|decision|confirmation)\b)|\bpunt(ed|ing)?\b|\bpark(ed|ing)? (this|that|it)\b|\bcome back to\b|\brevisit\b|\bout of scope\b|\bknown issue\b|\bnot (yet )?(implemented|handled|supported|done|wired|covered|fixed|tested|migrated)\b|\bunresolved\b|\bonce\b[^.;]{0,60}\b(i'll|we'll|i will|we will|you can)\b|(^|\b(is|are|am|been|still|currently|'s|'re|'m)\s+)(still\s+)?waiting (on|for)\b)`)
	// doneCue marks a statement that something was finished: it resolves
	// an open item that it names.
	doneCue = lazyre.New(`(?i)\b(done|fixed|added|implemented|finished|resolved|works|working|passes|passing|green|wired|handled|merged|shipped|landed|migrated|removed|answered|ran|completed|recomputed|deployed|backfilled|now)\b`)

	inlineCode = lazyre.New("`([^`\n]{1,40})`")
	tagWord    = lazyre.New(`^[A-Za-z][A-Za-z0-9_.:/-]*$`)
	slashCmd   = lazyre.New(`^/[A-Za-z][\w:-]*(\s|$)`)
)

// Importance of the candidates, 0..1: what each kind starts at, and what
// adds to it. Decisions matter most when they give a reason; preferences
// when they are stated as standing rules; facts when they hold a value.
const (
	impDecision     = 0.6  // a decision
	impDecisionWhy  = 0.15 // ... with a reason
	impDecisionUser = 0.1  // ... stated by the user
	impDecisionVs   = 0.05 // ... naming what it was chosen over
	impPrefRule     = 0.85 // always, never, from now on
	impPrefStated   = 0.7  // prefer, avoid, please use
	impPrefOneOff   = 0.3  // less for "for now", "this time", "yet"
	impRootCause    = 0.6  // a root cause found
	impFact         = 0.5  // an environment fact
	impFactValue    = 0.05 // ... with a URL, host, port, version, variable or command
	impFactUser     = 0.1  // ... stated by the user
	maxPerKind      = 8
)

func clamp(x, lo, hi float64) float64 { return max(lo, min(hi, x)) }

func round2(x float64) float64 { return float64(int(x*100+0.5)) / 100 }

// isChitchat reports whether a prompt asks for nothing: an
// acknowledgement, a "go on", or a slash command.
func isChitchat(p string) bool {
	p = strings.TrimSpace(p)
	return p == "" || slashCmd.MatchString(p) || chitchat.MatchString(p) || signOff.MatchString(p) ||
		strings.HasPrefix(p, "<command-") || strings.HasPrefix(p, "<local-command") || strings.HasPrefix(p, "Caveat: ")
}

// signOff is a prompt that only ends the day's work: "ok, leave it for
// today", "let's stop here", "that's all for now".
var signOff = lazyre.New(`(?i)^\s*(?:(?:ok(?:ay)?|alright|right|good|great|thanks?(?: you)?|cool)[,.!]?\s+)*(?:let'?s\s+)?(?:leave it|stop|call it a day|call it a night|wrap (?:it )?up|pause|park it|that'?s (?:it|all|enough))(?:\s+(?:here|there|for (?:today|now|tonight|the day)|then))*\s*[.!]*\s*$`)

// preference is the importance of a user's sentence as a standing
// preference, 0 when it is none.
func preference(s string) float64 {
	if prefAsk.MatchString(s) {
		return impPrefStated
	}
	if !prefCue.MatchString(habitual(s)) || strings.HasSuffix(s, "?") || telling.WhAsk.MatchString(s) || telling.Fault.MatchString(s) || described(s) || taskSpec.MatchString(s) || oneThing.MatchString(s) && !standing.MatchString(s) || doThat.MatchString(s) && !prefCue.MatchString(s[len(strings.Fields(s)[0]):]) {
		return 0
	}
	imp := impPrefStated
	if prefRule.MatchString(s) {
		imp = impPrefRule
	}
	if oneOff.MatchString(s) {
		imp -= impPrefOneOff
	}
	return imp
}

// symptomLog is a failure reported with where to read it: "deploys have
// been failing since Friday, the build log is in logs/…", "Connect
// fails, log is in logs/connect-deploy.log". The log is the session's
// evidence, not where the project runs.
var symptomLog = lazyre.New(`(?i)\b(?:fail\w*|broken|crash\w*|returning [45]\d\d|blew up|dies|dying|keeps dying)\b.*\b(?:logs?|output|stack trace|trace|deliveries|dump)\s+(?:is|are)\s+(?:in|at)\b|\b(?:logs?|output|stack trace|trace|deliveries|dump)\s+(?:is|are)\s+(?:in|at)\b.*\b(?:fail\w*|broken|crash\w*|blew up)\b|^stack trace is in\b`)

// asksThat reports whether s only asks for what was just said to be
// done: "Put that in, please."
func asksThat(s string) bool { return doThat.MatchString(s) && len(strings.Fields(s)) < 6 }

// doThat is work asked for on what was just said: "Put that in,
// please." A standing rule says more than its verb.
var doThat = lazyre.New(`(?i)^(?:put|make|add|do)\s+(?:that|it|this)(?:\s+(?:in|on|up|so|through|back|stop|go away|happen|work))?,?(?:\s+please)?[.!]?$`)

// oneThing is one thing asked to be made: "Write the Dockerfile now,
// multi-stage", unless said to hold from now on (standing).
var (
	oneThing = lazyre.New(`(?i)^(?:(?:ok(?:ay)?|yes|right|now|please),?\s+)*(?:write|build|add|make|create|put|set up)\s+(?:the|a|an|our|me a|me an)\s`)
	standing = lazyre.New(`(?i)\b(?:always|never|every|each|whenever|from now on|going forward|in (?:the )?future|any time)\b`)
)

// taskSpec is work asked for and then specified: "write the ingest:
// chunk the articles and load them …" asks for one thing to be made, not
// for a way of working.
var taskSpec = lazyre.New(`(?i)^(?:write|put|name|build|add|make)\s+(?:the|a|an|our)\s+[\w-]+(?:\s+[\w-]+){0,2}\s*:\s`)

// described reports whether every preference cue in s is a verb that
// follows its own subject: "security review flagged that we keep the
// session token in localStorage" tells what is done, not what the user
// asks for ("keep the token out of localStorage").
func described(s string) bool {
	for _, loc := range prefCue.FindAllStringIndex(s, -1) {
		f := strings.Fields(strings.ToLower(s[:loc[0]]))
		if len(f) == 0 || !doerWords[f[len(f)-1]] || !verbCues.MatchString(s[loc[0]:loc[1]]) {
			return false
		}
	}
	return true
}

// habit is a behaviour told with how often it happens ("saving from VS
// Code works every time", "slow clients never get cut off"): a report,
// not a wish.
var habit = lazyre.New(`(?i)\b(?:works|worked|fails|failed|happens|happened|breaks|broke|crashes|crashed|reloads|reloaded|passes|passed|hangs|misses|missed|loses|lost|times out|timed out)\b[^.;,]{0,20}\b(?:every time|each time)\b|\b(?:always|never) (?:works|worked|fails|failed|happens|happened|breaks|broke|crashes|crashed|reloads|passes|passed|hangs|misses|loses|times out|gets?|got)\b`)

// habitual is s without what it tells as a habit: a behaviour with how
// often it happens, or a thing that always or never does something
// ("the staff view never needs more"), which describes it. A rule for
// the agent names it: "the agent never pushes".
func habitual(s string) string {
	s = habit.ReplaceAllString(s, " ")
	if m := thingHabit.FindStringSubmatchIndex(s); m != nil && !agentWord.MatchString(s[m[2]:m[3]]) {
		s = s[m[1]:]
	}
	return s
}

var (
	thingHabit = lazyre.New(`(?i)^(?:the|a|an|our|its|this|that|their)\s+((?:[\w'-]+\s+){0,3})(?:always|never)\s+[a-z]+[^s\W]s\b`)
	agentWord  = lazyre.New(`(?i)\b(?:agent|assistant|claude|bot|ai|model|codex|gemini|cursor)\b`)
)

var (
	// doerWords are the subjects before a verb that make it a report.
	doerWords = prose.WordSet(`we they it he she who which that still also`)
	// verbCues are the preference cues that are a bare verb.
	verbCues = lazyre.New(`(?i)^(keep|stick to|make sure|remember to|use|avoid|write|name|put|prefer|stop)\b`)
)

// tagsOf takes a sentence's short names in backticks as tags: `postgres`,
// `go test`. Paths give their file name.
func tagsOf(s string) []string {
	var tags []string
	for _, m := range inlineCode.FindAllStringSubmatch(s, -1) {
		t := strings.TrimRight(strings.ToLower(strings.TrimSpace(m[1])), "/:")
		if i := strings.LastIndexByte(t, '/'); i >= 0 && i < len(t)-1 {
			t = t[i+1:]
		}
		if !tagWord.MatchString(t) || len(t) > 30 {
			continue
		}
		tags = prose.AppendNew(tags, t)
		if len(tags) == 4 {
			break
		}
	}
	sort.Strings(tags)
	return tags
}

// capped keeps at most maxPerKind of each kind, the most important (the
// earlier on ties), in their original order.
func capped(list []Candidate) []Candidate {
	byKind := map[Kind][]int{}
	for i, c := range list {
		byKind[c.Kind] = append(byKind[c.Kind], i)
	}
	keep := make([]bool, len(list))
	for _, idx := range byKind {
		sort.SliceStable(idx, func(a, b int) bool { return list[idx[a]].Importance > list[idx[b]].Importance })
		for i, j := range idx {
			keep[j] = i < maxPerKind
		}
	}
	var out []Candidate
	for _, k := range []Kind{Decision, Preference, Fact, Pattern} {
		for i, c := range list {
			if keep[i] && c.Kind == k {
				out = append(out, c)
			}
		}
	}
	return out
}
