package graphstore

import (
	"fmt"
	"reflect"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"unsafe"

	"github.com/neo4j/neo4j-go-driver/v5/neo4j"
	"github.com/neo4j/neo4j-go-driver/v5/neo4j/db"
)

// This file decides whether a console query may run, from the plan Neo4j
// returns for EXPLAIN: the server has parsed the text (unicode escapes,
// comments, case and all), so what the plan holds is what would run. No
// word of the query text is looked at.
//
// A plan is allowed when
//
//  1. Neo4j says its statement type is read-only ("r");
//  2. every operator in its tree is on readOperators (scans, seeks,
//     expands, joins, filters, projections, aggregation, sorting, limits):
//     ProcedureCall, LoadCSV, every SHOW and TERMINATE command, CALL IN
//     TRANSACTIONS and every write are not, nor is any operator this list
//     does not know;
//  3. every function the operators' arguments call is a built-in on
//     readFunctions. No procedure is allowed at all, and no gds.*, db.*,
//     dbms.* or apoc.* function (gds.graph.project, an aggregation function,
//     creates a GDS graph when merely RETURNed).
//
// Anything the checks cannot classify is refused.

// readOperators are the plan operators (as Neo4j 5.26 names them, without the
// "@database" suffix) that only read the graph of the session's database.
var readOperators = setOf(
	// leaves: scans and seeks
	"AllNodesScan", "NodeByLabelScan", "UnionNodeByLabelsScan", "IntersectionNodeByLabelsScan", "SubtractionNodeByLabelsScan",
	"NodeByIdSeek", "NodeByElementIdSeek", "NodeIndexScan", "NodeIndexSeek", "NodeUniqueIndexSeek", "NodeIndexSeekByRange",
	"NodeUniqueIndexSeekByRange", "NodeIndexContainsScan", "NodeIndexEndsWithScan", "MultiNodeIndexSeek",
	"AssertingMultiNodeIndexSeek", "AssertingMultiRelationshipIndexSeek",
	"DirectedAllRelationshipsScan", "UndirectedAllRelationshipsScan", "DirectedRelationshipTypeScan", "UndirectedRelationshipTypeScan",
	"DirectedUnionRelationshipTypesScan", "UndirectedUnionRelationshipTypesScan", "DirectedRelationshipByIdSeek",
	"UndirectedRelationshipByIdSeek", "DirectedRelationshipByElementIdSeek", "UndirectedRelationshipByElementIdSeek",
	"DirectedRelationshipIndexScan", "UndirectedRelationshipIndexScan", "DirectedRelationshipIndexSeek", "UndirectedRelationshipIndexSeek",
	"DirectedRelationshipUniqueIndexSeek", "UndirectedRelationshipUniqueIndexSeek", "DirectedRelationshipIndexSeekByRange",
	"UndirectedRelationshipIndexSeekByRange", "DirectedRelationshipUniqueIndexSeekByRange", "UndirectedRelationshipUniqueIndexSeekByRange",
	"DirectedRelationshipIndexContainsScan", "UndirectedRelationshipIndexContainsScan", "DirectedRelationshipIndexEndsWithScan",
	"UndirectedRelationshipIndexEndsWithScan", "NodeCountFromCountStore", "RelationshipCountFromCountStore", "Argument", "ArgumentTracker",
	// traversal
	"Expand(All)", "Expand(Into)", "OptionalExpand(All)", "OptionalExpand(Into)", "VarLengthExpand(All)", "VarLengthExpand(Into)",
	"VarLengthExpand(Pruning)", "VarLengthExpand(Pruning,BFS,All)", "VarLengthExpand(Pruning,BFS,Into)", "ShortestPath",
	"StatefulShortestPath(All)", "StatefulShortestPath(Into)", "PathPropagatingBFS", "Repeat(Trail)", "Repeat(Walk)",
	"BidirectionalRepeat(Trail)", "ProjectEndpoints", "TriadicSelection", "TriadicBuild", "TriadicFilter",
	// combining rows and subqueries (CALL { ... } plans as Apply)
	"Apply", "SemiApply", "AntiSemiApply", "LetSemiApply", "LetAntiSemiApply", "SelectOrSemiApply", "SelectOrAntiSemiApply",
	"LetSelectOrSemiApply", "LetSelectOrAntiSemiApply", "ConditionalApply", "AntiConditionalApply", "RollUpApply",
	"CartesianProduct", "NodeHashJoin", "ValueHashJoin", "NodeLeftOuterHashJoin", "NodeRightOuterHashJoin", "Union", "OrderedUnion",
	"Optional", "Anti",
	// rows
	"ProduceResults", "Projection", "Filter", "Limit", "ExhaustiveLimit", "Skip", "Sort", "PartialSort", "Top", "Top1WithTies",
	"PartialTop", "Distinct", "OrderedDistinct", "EagerAggregation", "OrderedAggregation", "Unwind", "CacheProperties", "Eager",
	"EmptyResult", "NullifyMetadata", "AssertSameNode", "AssertSameRelationship", "PreserveOrder",
)

// refusedOperators explain, for operators a user is likely to meet, why the
// console refuses them. Any other operator missing from readOperators is
// refused too, with a generic message.
var refusedOperators = map[string]string{
	"ProcedureCall":         "the console calls no procedure",
	"LoadCSV":               "LOAD CSV is not allowed in the console (the server would fetch the URL)",
	"TransactionApply":      "CALL { ... } IN TRANSACTIONS is not allowed in the console",
	"TransactionForeach":    "CALL { ... } IN TRANSACTIONS is not allowed in the console",
	"TerminateTransactions": "administration commands are not allowed in the console",
	"AdministrationCommand": "administration commands are not allowed in the console",
}

// readFunctions are the functions a console query may call: Neo4j's
// built-ins (SHOW FUNCTIONS, isBuiltIn) except file() and linenumber() (LOAD
// CSV only) and graph.* (composite databases), plus the names the planner
// itself writes into plans (count { } becomes getDegree, quantified path
// patterns isRepeatTrailUnique, constant folding RuntimeConstant). Compared
// in lower case, as Cypher compares built-in names.
var readFunctions = setOf(
	// aggregating
	"avg", "collect", "count", "max", "min", "percentilecont", "percentiledisc", "stdev", "stdevp", "sum",
	// list
	"keys", "labels", "nodes", "range", "reduce", "relationships", "reverse", "tail", "tobooleanlist", "tofloatlist",
	"tointegerlist", "tostringlist",
	// logarithmic, numeric, trigonometric
	"e", "exp", "log", "log10", "sqrt", "abs", "ceil", "floor", "isnan", "rand", "round", "sign",
	"acos", "asin", "atan", "atan2", "cos", "cot", "degrees", "haversin", "pi", "radians", "sin", "tan",
	// predicate
	"all", "any", "exists", "isempty", "none", "single",
	// scalar
	"char_length", "character_length", "coalesce", "elementid", "endnode", "head", "id", "last", "length", "nullif",
	"properties", "randomuuid", "size", "startnode", "timestamp", "toboolean", "tobooleanornull", "tofloat",
	"tofloatornull", "tointeger", "tointegerornull", "type", "valuetype",
	// string
	"btrim", "left", "lower", "ltrim", "normalize", "replace", "right", "rtrim", "split", "substring", "tolower",
	"tostring", "tostringornull", "toupper", "trim", "upper",
	// spatial and vector
	"point", "point.distance", "point.withinbbox", "vector.similarity.cosine", "vector.similarity.euclidean",
	// temporal
	"date", "date.realtime", "date.statement", "date.transaction", "date.truncate",
	"datetime", "datetime.fromepoch", "datetime.fromepochmillis", "datetime.realtime", "datetime.statement",
	"datetime.transaction", "datetime.truncate", "duration", "duration.between", "duration.indays", "duration.inmonths",
	"duration.inseconds", "localdatetime", "localdatetime.realtime", "localdatetime.statement", "localdatetime.transaction",
	"localdatetime.truncate", "localtime", "localtime.realtime", "localtime.statement", "localtime.transaction",
	"localtime.truncate", "time", "time.realtime", "time.statement", "time.transaction", "time.truncate",
	// written by the planner
	"getdegree", "isrepeattrailunique", "runtimeconstant",
)

// refusedNamespaces name, in lower case, the namespaces whose functions the
// console refuses with a specific message (GDS, database and DBMS
// administration, APOC).
var refusedNamespaces = setOf("gds", "db", "dbms", "apoc")

// planKeywords are the Cypher words a plan's text may put before a
// parenthesis that opens an expression or a pattern, not a call:
// "NOT (a)--(b)", "SHORTEST 2 GROUPS (a)...", "WHERE (...)".
var planKeywords = setOf("and", "or", "xor", "not", "in", "is", "where", "when", "then", "else", "case", "end", "as",
	"on", "for", "groups", "shortest", "distinct", "contains", "with", "starts", "ends", "from", "by", "of", "rows",
	"limit", "skip", "asc", "desc", "null", "true", "false")

func setOf(names ...string) map[string]bool {
	m := make(map[string]bool, len(names))
	for _, n := range names {
		m[n] = true
	}
	return m
}

// planNode is one operator of an EXPLAIN plan.
type planNode struct {
	Operator string // without the "@database" suffix
	Args     map[string]any
	Children []planNode
}

// readPlan copies the plan tree of an EXPLAIN summary.
//
// It reads the driver's db.Plan instead of calling Plan.Children: in
// neo4j-go-driver v5.28.4, Children returns the last child once per child
// (it takes the address of the range variable; the profiled plan's
// Children was fixed, the plan's was not), so the first input of every
// Apply, CartesianProduct or Union, where "CALL db.labels() YIELD ... MATCH
// ..." puts its ProcedureCall, would go unseen. When the driver's layout
// changes, readPlan fails and the console refuses everything, which
// TestDB_RunConsole_Corpus notices.
func readPlan(p neo4j.Plan) (*planNode, error) {
	if p == nil {
		return nil, fmt.Errorf("no plan")
	}
	v := reflect.ValueOf(p)
	if v.Kind() != reflect.Pointer || v.IsNil() || v.Elem().Kind() != reflect.Struct || v.Elem().NumField() != 1 {
		return nil, fmt.Errorf("unexpected plan type %T", p)
	}
	f := v.Elem().Field(0)
	if f.Type() != reflect.TypeOf((*db.Plan)(nil)) || f.IsNil() {
		return nil, fmt.Errorf("unexpected plan field %s in %T", f.Type(), p)
	}
	raw := (*db.Plan)(unsafe.Pointer(f.Pointer()))
	n := copyPlan(raw)
	return &n, nil
}

func copyPlan(p *db.Plan) planNode {
	n := planNode{Operator: p.Operator, Args: p.Arguments}
	if i := strings.LastIndexByte(n.Operator, '@'); i > 0 {
		n.Operator = n.Operator[:i]
	}
	for i := range p.Children {
		n.Children = append(n.Children, copyPlan(&p.Children[i]))
	}
	return n
}

// checkPlan decides from a plan and its statement type whether the console
// may run a query (see the file comment). Errors: EINVALID starting with
// "refused:", naming what was refused.
func checkPlan(statementType neo4j.StatementType, root *planNode) error {
	if statementType != neo4j.StatementTypeReadOnly {
		return refusedf("Neo4j plans this query as %s, and the console runs read-only queries only", statementType)
	}
	if root == nil {
		return refusedf("Neo4j returned no plan for this query")
	}
	if err := walkPlan(root); err != nil {
		return err
	}
	// The plan's own table names every operator once: each must pass the
	// same check, so that an operator the copied tree might miss is still
	// refused.
	table, _ := root.Args["string-representation"].(string)
	if table == "" {
		return refusedf("Neo4j's plan has no description to check")
	}
	for _, op := range tableOperators(table) {
		if err := checkOperator(op); err != nil {
			return err
		}
	}
	return nil
}

func walkPlan(n *planNode) error {
	if err := checkOperator(n.Operator); err != nil {
		if n.Operator == "ProcedureCall" {
			if names, _ := planCalls(fmt.Sprint(n.Args["Details"]), false); len(names) > 0 {
				return refusedf("the console calls no procedure (%s)", names[0])
			}
		}
		return err
	}
	keys := make([]string, 0, len(n.Args))
	for k := range n.Args {
		if k != "string-representation" {
			keys = append(keys, k)
		}
	}
	sort.Strings(keys)
	for _, k := range keys {
		for _, text := range argTexts(n.Args[k]) {
			names, err := planCalls(text, strings.Contains(n.Operator, "Index"))
			if err != nil {
				return err
			}
			for _, name := range names {
				if err := checkFunction(name); err != nil {
					return err
				}
			}
		}
	}
	for i := range n.Children {
		if err := walkPlan(&n.Children[i]); err != nil {
			return err
		}
	}
	return nil
}

func checkOperator(op string) error {
	if readOperators[op] {
		return nil
	}
	if why, ok := refusedOperators[op]; ok {
		return refusedf("%s", why)
	}
	switch {
	case strings.HasPrefix(op, "Show"), strings.HasPrefix(op, "Terminate"):
		return refusedf("administration commands are not allowed in the console (%s)", op)
	}
	return refusedf("the plan holds %s, which is not on the console's list of read-only operators", op)
}

func checkFunction(name string) error {
	lower := strings.ToLower(name)
	if readFunctions[lower] {
		return nil
	}
	if ns, _, ok := strings.Cut(lower, "."); ok && refusedNamespaces[ns] {
		return refusedf("%s: the console calls no gds.*, db.*, dbms.* or apoc.* function", name)
	}
	return refusedf("%s is not on the console's list of built-in functions", name)
}

// argTexts returns the strings in a plan argument.
func argTexts(v any) []string {
	switch x := v.(type) {
	case string:
		return []string{x}
	case []any:
		var out []string
		for _, e := range x {
			out = append(out, argTexts(e)...)
		}
		return out
	case map[string]any:
		var out []string
		for _, e := range x {
			out = append(out, argTexts(e)...)
		}
		return out
	}
	return nil
}

// tableRowRE matches an operator's row in the plan's table: pipes and
// spaces, then "+Operator".
var tableRowRE = regexp.MustCompile(`(?m)^[| \\]*\+([A-Za-z][A-Za-z0-9]*(?:\([A-Za-z,]*\))?)`)

// tableOperators returns the operators the plan's table lists.
func tableOperators(table string) []string {
	var ops []string
	for _, m := range tableRowRE.FindAllStringSubmatch(table, -1) {
		ops = append(ops, m[1])
	}
	return ops
}

// planCalls returns the names called in a plan argument: every identifier,
// or dotted chain of them, that a parenthesis follows. It reads the whole
// text, quoted names and strings included (string values reach plans as
// parameters, and aliases repeat the query's own calls), so a call cannot
// hide in a quote. Labels before a parenthesis in an index operator
// ("RANGE INDEX n:Entity(run)") and keywords before an expression
// ("NOT (a)") are not calls. A parenthesis after a quoted or non-ASCII name,
// a parameter or a dangling dot is refused: the plan cannot account for it.
func planCalls(text string, index bool) ([]string, error) {
	var names []string
	for i := 0; i < len(text); i++ {
		if text[i] != '(' {
			continue
		}
		j := i - 1
		for j >= 0 && (text[j] == ' ' || text[j] == '\t' || text[j] == '\n' || text[j] == '\r') {
			j--
		}
		if j < 0 {
			continue
		}
		c := text[j]
		switch {
		case c == '`' || c >= 0x80:
			return nil, refusedf("the plan calls a quoted or non-ASCII name the console cannot check (%q)", excerpt(text, i))
		case !isNameByte(c) && c != '.':
			continue // "(a)-(b)", "count( () )", "[x IN (list)]"
		}
		k := j
		for k >= 0 && (isNameByte(text[k]) || text[k] == '.') {
			k--
		}
		chain := text[k+1 : j+1]
		if chain[0] >= '0' && chain[0] <= '9' {
			continue // "SHORTEST 1 (a)"
		}
		var prev byte
		if k >= 0 {
			prev = text[k]
		}
		switch {
		case chain[0] == '.' || chain[len(chain)-1] == '.' || strings.Contains(chain, ".."),
			prev >= 0x80 || prev == '$' || prev == '\\':
			return nil, refusedf("the plan calls a name the console cannot check (%q)", excerpt(text, i))
		case prev == ':' && index && !strings.Contains(chain, "."):
			continue // an index's label or type: "n:Entity(run)"
		case !strings.Contains(chain, ".") && planKeywords[strings.ToLower(chain)]:
			continue
		}
		names = append(names, chain)
	}
	return names, nil
}

func isNameByte(c byte) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

// excerpt returns up to 40 bytes of text before position i, for messages.
func excerpt(text string, i int) string {
	lo := max(0, i-40)
	return text[lo : i+1]
}

// Limits on a console query's text, checked before the text reaches Neo4j.
// Neo4j 5.26's parser recurses once per nesting level and, past a few
// hundred levels, dies of a stack overflow without ever answering: measured
// here, 500 nested parentheses, 300 nested lists, 400 NOTs in a row or 200
// nested CASEs hang the connection until the client gives up, while 200, 200, 200 and 100 parse. Long chains of binary
// operators (1+1+...) parse to 2,000 terms and fail at 3,000. The limits
// below stay far under all of these.
const (
	// maxConsoleQuery bounds the query's length in bytes.
	maxConsoleQuery = 20000
	// maxConsoleTokens bounds its words, numbers, strings and symbols.
	maxConsoleTokens = 2000
	// maxConsoleDepth bounds its nesting: brackets, CASE ... END, and
	// prefix operators (NOT, unary minus and plus) in a row.
	maxConsoleDepth = 40
)

// checkText refuses a query whose text is too long, has too many tokens or
// nests too deeply for Neo4j's parser (see maxConsoleDepth). It reads the
// text the way Neo4j's lexer does as far as nesting goes: \uHHHH escapes
// are decoded first (Neo4j decodes them everywhere, LO\u0041D is LOAD), and
// brackets inside strings, quoted names and comments do not count, except
// that an opening bracket there still counts as one level: a mismatch
// between this reading and Neo4j's can then only overcount. It returns the
// bytes of all string literals together, which bounds any string literal
// of the plan (Neo4j shows them as $autostring_N). Errors: EINVALID
// starting with "refused:".
func checkText(query string) (literals int, err error) {
	if len(query) > maxConsoleQuery {
		return 0, refusedf("the query is %d bytes, over the console's limit of %d", len(query), maxConsoleQuery)
	}
	text := decodeEscapes(query)
	type frame struct {
		closer byte // ')', ']', '}' or 'E' for CASE ... END
		prefix int  // prefix operators in a row at this level
	}
	stack := []frame{{}}
	depth := func() int {
		d := len(stack) - 1
		for _, f := range stack {
			d += f.prefix
		}
		return d
	}
	tokens, maxDepth, extra := 0, 0, 0
	prev := "" // the previous token, upper case for words
	for i := 0; i < len(text); {
		c := text[i]
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v':
			i++
			continue
		case strings.HasPrefix(text[i:], "//"):
			j := strings.IndexByte(text[i:], '\n')
			if j < 0 {
				j = len(text) - i
			}
			extra += strings.Count(text[i:i+j], "(") + strings.Count(text[i:i+j], "[") + strings.Count(text[i:i+j], "{")
			i += j
			continue
		case strings.HasPrefix(text[i:], "/*"):
			j := strings.Index(text[i+2:], "*/")
			end := len(text)
			if j >= 0 {
				end = i + 2 + j + 2
			}
			extra += strings.Count(text[i:end], "(") + strings.Count(text[i:end], "[") + strings.Count(text[i:end], "{")
			i = end
			continue
		}
		tokens++
		if tokens > maxConsoleTokens {
			return 0, refusedf("the query has over %d tokens, the console's limit", maxConsoleTokens)
		}
		tok := ""
		switch {
		case c == '\'' || c == '"' || c == '`':
			j := i + 1
			for j < len(text) && text[j] != c {
				if text[j] == '\\' && c != '`' {
					j++
				}
				j++
			}
			s := text[i:min(j+1, len(text))]
			extra += strings.Count(s, "(") + strings.Count(s, "[") + strings.Count(s, "{")
			if c != '`' {
				literals += len(s)
			}
			i, tok = j+1, "x"
		case isNameByte(c) || c >= 0x80:
			j := i
			for j < len(text) && (isNameByte(text[j]) || text[j] >= 0x80) {
				j++
			}
			tok, i = strings.ToUpper(text[i:j]), j
		default:
			tok, i = string(c), i+1
		}
		top := &stack[len(stack)-1]
		switch tok {
		case "(", "[", "{", "CASE":
			closer := map[string]byte{"(": ')', "[": ']', "{": '}', "CASE": 'E'}[tok]
			stack = append(stack, frame{closer: closer})
		case ")", "]", "}", "END":
			closer := tok[0]
			if tok == "END" {
				closer = 'E'
			}
			// Pop to the matching opener; an unmatched closer is
			// Neo4j's syntax error to report.
			for k := len(stack) - 1; k > 0; k-- {
				if stack[k].closer == closer {
					stack = stack[:k]
					break
				}
			}
		case "NOT":
			top.prefix++
		case "-", "+":
			if prefixPosition(prev) {
				top.prefix++
			} else {
				top.prefix = 0
			}
		default:
			if tok != "" && !isOperatorToken(tok) {
				// an operand ends the run of prefix operators before it
				top.prefix = 0
			}
		}
		if d := depth() + extra; d > maxDepth {
			maxDepth = d
		}
		if maxDepth > maxConsoleDepth {
			return 0, refusedf("the query nests deeper than the console's limit of %d levels (brackets, CASE and NOT count)", maxConsoleDepth)
		}
		prev = tok
	}
	if depth()+extra > maxConsoleDepth { // brackets in a trailing comment
		return 0, refusedf("the query nests deeper than the console's limit of %d levels (brackets, CASE and NOT count)", maxConsoleDepth)
	}
	return literals, nil
}

// prefixPosition says whether a + or - after the token prev is a sign
// rather than an addition or subtraction.
func prefixPosition(prev string) bool {
	switch prev {
	case "", "(", "[", "{", ",", ":", "|", "=", "<", ">", "+", "-", "*", "/", "%", "^",
		"RETURN", "WITH", "WHERE", "AND", "OR", "XOR", "NOT", "WHEN", "THEN", "ELSE", "CASE", "IN", "BY", "SKIP", "LIMIT", "UNWIND", "CONTAINS", "STARTS", "ENDS", "IS", "DISTINCT", "SET":
		return true
	}
	return false
}

// isOperatorToken says whether a token is an operator or keyword that
// continues an expression (after it an operand still has to come).
func isOperatorToken(tok string) bool {
	if len(tok) == 1 && !isNameByte(tok[0]) && tok[0] < 0x80 {
		return true
	}
	switch tok {
	case "AND", "OR", "XOR", "IN", "IS", "CONTAINS", "STARTS", "ENDS", "WITH", "WHEN", "THEN", "ELSE":
		return true
	}
	return false
}

// decodeEscapes decodes \uHHHH (and \uuHHHH, as Java allows) wherever a
// backslash starts one, that is, not after another backslash that is
// itself not escaped; the text is otherwise unchanged.
func decodeEscapes(s string) string {
	if !strings.Contains(s, `\u`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' {
			j := i + 1
			for j < len(s) && s[j] == 'u' {
				j++
			}
			if j > i+1 && j+4 <= len(s) {
				if r, err := strconv.ParseUint(s[j:j+4], 16, 32); err == nil {
					b.WriteRune(rune(r))
					i = j + 3
					continue
				}
			}
			if j == i+1 && i+1 < len(s) && s[i+1] == '\\' {
				b.WriteString(`\\`) // an escaped backslash starts no escape
				i++
				continue
			}
		}
		b.WriteByte(s[i])
	}
	return b.String()
}
