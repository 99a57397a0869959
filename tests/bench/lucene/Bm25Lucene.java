// The Lucene side of the BM25 benchmarks (tests/bench/bm25_lucene.ts compiles and runs it).
// index DOCS.tsv DIR: indexes "id<TAB>text" lines with EnglishAnalyzer and BM25Similarity(0.9, 0.4)
//   into one segment; prints "index <seconds>".
// search DIR QUERIES.tsv K ROUNDS OUT.tsv: one warm-up pass, then ROUNDS timed passes of top-K
//   searches after three warm-up passes (one thread, SHOULD term clauses); prints "search <median queries/s> <median per CPU s>"
//   and writes the top 10 of each query to OUT.tsv (query, rank, docid, score).
import java.io.*;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.*;
import java.util.*;
import org.apache.lucene.analysis.*;
import org.apache.lucene.analysis.en.EnglishAnalyzer;
import org.apache.lucene.analysis.tokenattributes.CharTermAttribute;
import org.apache.lucene.document.*;
import org.apache.lucene.index.*;
import org.apache.lucene.search.*;
import org.apache.lucene.search.similarities.BM25Similarity;
import org.apache.lucene.store.FSDirectory;

public class Bm25Lucene {
  public static void main(String[] args) throws Exception {
    if (args[0].equals("index")) index(Paths.get(args[1]), Paths.get(args[2]));
    else search(Paths.get(args[1]), Paths.get(args[2]), Integer.parseInt(args[3]),
        Integer.parseInt(args[4]), Paths.get(args[5]));
  }

  static void index(Path docs, Path dir) throws Exception {
    long t = System.nanoTime();
    IndexWriterConfig cfg = new IndexWriterConfig(new EnglishAnalyzer());
    cfg.setSimilarity(new BM25Similarity(0.9f, 0.4f));
    cfg.setOpenMode(IndexWriterConfig.OpenMode.CREATE);
    cfg.setRAMBufferSizeMB(256);
    try (IndexWriter w = new IndexWriter(FSDirectory.open(dir), cfg);
        BufferedReader r = Files.newBufferedReader(docs, StandardCharsets.UTF_8)) {
      String line;
      while ((line = r.readLine()) != null) {
        int tab = line.indexOf('\t');
        Document d = new Document();
        d.add(new StringField("id", line.substring(0, tab), Field.Store.YES));
        d.add(new TextField("contents", line.substring(tab + 1), Field.Store.NO));
        w.addDocument(d);
      }
      w.forceMerge(1);
      w.commit();
    }
    System.out.printf("index %.3f%n", (System.nanoTime() - t) / 1e9);
  }

  static Query query(Analyzer a, String text) throws IOException {
    BooleanQuery.Builder b = new BooleanQuery.Builder();
    try (TokenStream ts = a.tokenStream("contents", text)) {
      CharTermAttribute term = ts.addAttribute(CharTermAttribute.class);
      ts.reset();
      while (ts.incrementToken()) {
        b.add(new TermQuery(new Term("contents", term.toString())), BooleanClause.Occur.SHOULD);
      }
      ts.end();
    }
    return b.build();
  }

  static double median(double[] xs) {
    double[] s = xs.clone();
    Arrays.sort(s);
    return s.length % 2 == 1 ? s[s.length / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
  }

  static void search(Path dir, Path queries, int k, int rounds, Path out) throws Exception {
    BooleanQuery.setMaxClauseCount(100000);
    Analyzer a = new EnglishAnalyzer();
    List<String> ids = new ArrayList<>();
    List<Query> qs = new ArrayList<>();
    for (String line : Files.readAllLines(queries, StandardCharsets.UTF_8)) {
      if (line.isEmpty()) continue;
      int tab = line.indexOf('\t');
      ids.add(line.substring(0, tab));
      qs.add(query(a, line.substring(tab + 1)));
    }
    try (IndexReader reader = DirectoryReader.open(FSDirectory.open(dir))) {
      IndexSearcher s = new IndexSearcher(reader);
      s.setSimilarity(new BM25Similarity(0.9f, 0.4f));
      s.setQueryCache(null);
      StringBuilder top = new StringBuilder();
      for (int i = 0; i < qs.size(); i++) {
        ScoreDoc[] hits = s.search(qs.get(i), k).scoreDocs;
        for (int r = 0; r < Math.min(10, hits.length); r++) {
          String id = s.doc(hits[r].doc).get("id");
          top.append(ids.get(i)).append('\t').append(r + 1).append('\t').append(id).append('\t')
              .append(hits[r].score).append('\n');
        }
      }
      Files.write(out, top.toString().getBytes(StandardCharsets.UTF_8));
      com.sun.management.OperatingSystemMXBean os =
          (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
      for (int w = 0; w < 3; w++) for (Query q : qs) s.search(q, k); // JIT warm-up
      double[] rates = new double[rounds];
      double[] cpuRates = new double[rounds];
      for (int r = 0; r < rounds; r++) {
        long t = System.nanoTime();
        long c = os.getProcessCpuTime();
        for (Query q : qs) s.search(q, k);
        rates[r] = qs.size() / ((System.nanoTime() - t) / 1e9);
        cpuRates[r] = qs.size() / ((os.getProcessCpuTime() - c) / 1e9);
      }
      System.out.printf("search %.2f %.2f%n", median(rates), median(cpuRates));
    }
  }
}
