package dev.gpugen.report;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalDouble;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The reports of one folder, grouped by pool, problems first: pools with a failed node before the
 * others, and in each pool the failed nodes, then the outliers, then the rest, each by host name
 * (natural order: gpu-2 before gpu-10). The one order both the page and the JUnit file use.
 *
 * @param pools in display order
 * @param runTimes every distinct {@code validated_at}, sorted
 * @param specs every distinct spec fingerprint with how many reports carry it
 */
public record Fleet(List<Pool> pools, List<String> runTimes, SortedMap<String, Integer> specs) {
  public Fleet {
    pools = List.copyOf(pools);
    runTimes = List.copyOf(runTimes);
    specs = java.util.Collections.unmodifiableSortedMap(new TreeMap<>(specs));
  }

  /**
   * One pool's reports.
   *
   * @param name "" for reports that name no pool
   * @param threshold the single-node bus-bandwidth threshold most of its reports were judged
   *     against (the higher one on a tie)
   * @param median the median bus bandwidth of its nodes that measured one
   * @param measured how many of its nodes measured one
   * @param checks the checks any of its reports has, in play 05's order
   * @param versions per version field, each value with how many nodes reported it
   */
  public record Pool(
      String name,
      List<HostReport> hosts,
      OptionalDouble threshold,
      OptionalDouble median,
      int measured,
      List<String> checks,
      SortedMap<String, SortedMap<String, Integer>> versions) {
    public Pool {
      hosts = List.copyOf(hosts);
      checks = List.copyOf(checks);
    }

    public long failed() {
      return hosts.stream().filter(h -> !h.passed()).count();
    }

    public long outliers() {
      return hosts.stream().filter(HostReport::outlier).count();
    }
  }

  public static Fleet of(List<HostReport> reports) {
    Map<String, List<HostReport>> byPool = new TreeMap<>();
    for (HostReport r : reports) {
      byPool.computeIfAbsent(r.pool(), k -> new ArrayList<>()).add(r);
    }
    List<Pool> pools = new ArrayList<>();
    byPool.forEach((name, hosts) -> pools.add(pool(name, hosts)));
    pools.sort(
        Comparator.comparing((Pool p) -> p.failed() == 0)
            .thenComparing(p -> p.outliers() == 0)
            .thenComparing(Pool::name, NATURAL));
    TreeSet<String> times = new TreeSet<>();
    SortedMap<String, Integer> specs = new TreeMap<>();
    for (HostReport r : reports) {
      if (!r.validatedAt().isEmpty()) {
        times.add(r.validatedAt());
      }
      if (!r.specSha256().isEmpty()) {
        specs.merge(r.specSha256(), 1, Integer::sum);
      }
    }
    return new Fleet(pools, new ArrayList<>(times), specs);
  }

  public int hosts() {
    return pools.stream().mapToInt(p -> p.hosts().size()).sum();
  }

  public long failed() {
    return pools.stream().mapToLong(Pool::failed).sum();
  }

  public long outliers() {
    return pools.stream().mapToLong(Pool::outliers).sum();
  }

  public long notTested() {
    return pools.stream()
        .flatMap(p -> p.hosts().stream())
        .filter(h -> h.passed() && h.notTested())
        .count();
  }

  /** Every cluster name the reports give, sorted. */
  public List<String> clusters() {
    TreeSet<String> names = new TreeSet<>();
    pools.forEach(p -> p.hosts().forEach(h -> names.add(h.cluster())));
    names.remove("");
    return new ArrayList<>(names);
  }

  private static Pool pool(String name, List<HostReport> hosts) {
    List<HostReport> sorted = new ArrayList<>(hosts);
    sorted.sort(
        Comparator.comparing(HostReport::passed)
            .thenComparing(h -> !h.outlier())
            .thenComparing(HostReport::host, NATURAL)
            .thenComparing(HostReport::file));
    List<Double> bandwidths = new ArrayList<>();
    Map<Double, Integer> thresholds = new HashMap<>();
    TreeSet<String> checks = new TreeSet<>(Checks.BY_ORDER);
    SortedMap<String, SortedMap<String, Integer>> versions = new TreeMap<>();
    for (HostReport h : sorted) {
      h.busBandwidth().ifPresent(bandwidths::add);
      h.threshold().ifPresent(t -> thresholds.merge(t, 1, Integer::sum));
      h.checks().forEach(c -> checks.add(c.name()));
      h.versions()
          .forEach(
              (k, v) ->
                  versions.computeIfAbsent(k, x -> new TreeMap<>()).merge(v, 1, Integer::sum));
    }
    OptionalDouble threshold =
        thresholds.entrySet().stream()
            .max(
                Map.Entry.<Double, Integer>comparingByValue()
                    .thenComparing(Map.Entry.comparingByKey()))
            .map(e -> OptionalDouble.of(e.getKey()))
            .orElse(OptionalDouble.empty());
    return new Pool(
        name,
        sorted,
        threshold,
        median(bandwidths),
        bandwidths.size(),
        new ArrayList<>(checks),
        versions);
  }

  /** The median: the middle value, or the mean of the two middle values. */
  static OptionalDouble median(List<Double> values) {
    if (values.isEmpty()) {
      return OptionalDouble.empty();
    }
    List<Double> s = new ArrayList<>(values);
    s.sort(null);
    int n = s.size();
    // Halved before adding: for normal doubles the same as (a + b) / 2 (halving them is exact),
    // without its overflow to Infinity for figures near Double.MAX_VALUE.
    return OptionalDouble.of(s.get((n - 1) / 2) / 2 + s.get(n / 2) / 2);
  }

  /** Natural order: runs of digits compare as numbers, so gpu-2 sorts before gpu-10. */
  static final Comparator<String> NATURAL =
      (a, b) -> {
        int i = 0;
        int j = 0;
        while (i < a.length() && j < b.length()) {
          char x = a.charAt(i);
          char y = b.charAt(j);
          if (Character.isDigit(x) && Character.isDigit(y)) {
            int si = i;
            int sj = j;
            while (i < a.length() && Character.isDigit(a.charAt(i))) {
              i++;
            }
            while (j < b.length() && Character.isDigit(b.charAt(j))) {
              j++;
            }
            String da = a.substring(si, i).replaceFirst("^0+(?=.)", "");
            String db = b.substring(sj, j).replaceFirst("^0+(?=.)", "");
            int c =
                da.length() != db.length()
                    ? Integer.compare(da.length(), db.length())
                    : da.compareTo(db);
            if (c != 0) {
              return c;
            }
          } else {
            if (x != y) {
              return Character.compare(x, y);
            }
            i++;
            j++;
          }
        }
        int c = Integer.compare(a.length() - i, b.length() - j);
        return c != 0 ? c : a.compareTo(b);
      };
}
