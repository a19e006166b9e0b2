package dev.gpugen.report;

import dev.gpugen.Golden;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.stream.Stream;

/**
 * Reports as play 05 writes them, for the page and JUnit tests: the committed fleet (passing,
 * failing, outlier, skipped, not-tested, hostile and pre-outlier reports,
 * src/test/resources/report-fixtures/fleet) and a generated fleet of any size.
 */
final class ReportFixtures {
  private ReportFixtures() {}

  /** A copy of the committed fleet's reports in {@code dir}. */
  static Path fleet(Path dir) throws IOException {
    Path src = Golden.repo().resolve("src/test/resources/report-fixtures/fleet");
    Files.createDirectories(dir);
    try (Stream<Path> s = Files.list(src)) {
      for (Path f : s.sorted().toList()) {
        Files.copy(f, dir.resolve(f.getFileName()));
      }
    }
    return dir;
  }

  /**
   * {@code hosts} reports in four pools of 8 x H100 nodes at about 390 GB/s: every 97th node fails
   * its burn-in and the threshold, every 61st is 15% below its pool's median (an outlier), every
   * 53rd skipped its burn-in.
   */
  static Path generated(Path dir, int hosts) throws IOException {
    Files.createDirectories(dir);
    for (int i = 0; i < hosts; i++) {
      String pool = "pool-" + (char) ('a' + i % 4);
      String host = String.format(Locale.ROOT, "gpu-%03d", i);
      boolean fail = i % 97 == 13;
      boolean outlier = !fail && i % 61 == 7;
      boolean skipped = !fail && !outlier && i % 53 == 5;
      double busbw = fail ? 301.5 : outlier ? 331.0 : 388.0 + (i % 7);
      Files.writeString(
          dir.resolve(host + ".json"), report(host, pool, busbw, fail, outlier, skipped));
    }
    return dir;
  }

  private static String report(
      String host, String pool, double busbw, boolean fail, boolean outlier, boolean skipped) {
    String burn =
        skipped
            ? "{\"status\": \"skipped\"}"
            : fail
                ? "{\"expected\": \"8 GPUs OK after 120 s\", \"gflops\": 0.0, \"measured\": \"7 GPUs"
                    + " OK (exit 1)\", \"status\": \"fail\"}"
                : "{\"expected\": \"8 GPUs OK after 120 s\", \"gflops\": 6230.0, \"measured\": \"8"
                    + " GPUs OK (exit 0)\", \"status\": \"pass\"}";
    String nccl =
        skipped
            ? "{\"status\": \"skipped\"}"
            : String.format(
                Locale.ROOT,
                "{\"busbw_gbps\": %.2f, \"expected\": \"busbw >= 350 GB/s at 8G, network"
                    + " Libfabric\", \"measured\": \"%.2f GB/s busbw at 8589934592 B, 0 wrong (exit"
                    + " 0)\", \"status\": \"%s\"}",
                busbw,
                busbw,
                busbw >= 350 ? "pass" : "fail");
    String outlierCheck =
        skipped
            ? "{\"status\": \"skipped\"}"
            : String.format(
                Locale.ROOT,
                "{\"busbw_below_median_percent\": %.1f, \"expected\": \"within 10%% of the median of"
                    + " pool %s (busbw 391 GB/s over 125 nodes)\", \"measured\": \"busbw %.2f GB/s,"
                    + " %.1f%% below the median\", \"pool_median_busbw_gbps\": 391.0, \"status\":"
                    + " \"%s\"}",
                (391 - busbw) / 391 * 100,
                pool,
                busbw,
                (391 - busbw) / 391 * 100,
                outlier || busbw < 351.9 ? "warn" : "pass");
    return "{\n  \"checks\": {\n"
        + "    \"driver_version\": {\"expected\": \"580.95.05\", \"measured\": \"580.95.05\","
        + " \"status\": \"pass\"},\n"
        + "    \"gpu_count\": {\"expected\": 8, \"measured\": 8, \"status\": \"pass\"},\n"
        + "    \"gpu_burn\": "
        + burn
        + ",\n    \"nccl_all_reduce\": "
        + nccl
        + ",\n    \"dcgm_diag\": {\"expected\": \"dcgmi diag -r 1 passes\", \"measured\": \"exit 0;"
        + " no failures\", \"status\": \"pass\"},\n"
        + "    \"outlier\": "
        + outlierCheck
        + "\n  },\n  \"cluster\": \"fleet-500\",\n  \"host\": \""
        + host
        + "\",\n  \"passed\": "
        + !(fail)
        + ",\n  \"pool\": \""
        + pool
        + "\",\n  \"spec_sha256\": \"9d2f\",\n  \"validated_at\": \"2025-06-02T14:07:31Z\",\n"
        + "  \"versions\": {\"driver\": \"580.95.05\", \"kernel\": \"6.8.0-1029-aws\"}\n}\n";
  }
}
