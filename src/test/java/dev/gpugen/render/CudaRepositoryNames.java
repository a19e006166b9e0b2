package dev.gpugen.render;

import dev.gpugen.Golden;
import java.io.IOException;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The package names NVIDIA's CUDA repository uses for Fabric Manager and NSCQ per driver branch,
 * read from src/test/resources/upstream/cuda-repository-fabric-packages.txt (copied from NVIDIA's
 * driver container, with its source): the loopback repository carries exactly these names and
 * Provides, so the tests cannot share a wrong belief with the role.
 */
final class CudaRepositoryNames {
  /**
   * One row of the file: a package name for a range of branches, and what it provides.
   *
   * @param firstBranch the first branch the row applies to
   * @param lastBranch the last one, {@link Integer#MAX_VALUE} for no end
   * @param name the package name, {@code {branch}} standing for the branch
   * @param provides the Provides field, {@code {branch}} likewise; empty for none
   */
  record Row(int firstBranch, int lastBranch, String name, String provides) {
    boolean covers(int branch) {
      return branch >= firstBranch && branch <= lastBranch;
    }
  }

  private CudaRepositoryNames() {}

  static List<Row> rows() throws IOException {
    List<Row> out = new ArrayList<>();
    for (String line :
        Files.readAllLines(
            Golden.repo()
                .resolve("src/test/resources/upstream/cuda-repository-fabric-packages.txt"))) {
      if (line.isBlank() || line.startsWith("#")) {
        continue;
      }
      String[] f = line.trim().split("\\s+");
      out.add(
          new Row(
              Integer.parseInt(f[0]),
              f[1].equals("-") ? Integer.MAX_VALUE : Integer.parseInt(f[1]),
              f[2],
              f[3].equals("-") ? "" : f[3]));
    }
    return out;
  }

  /** The real (installable) package names of {@code branch}, in the file's order. */
  static List<String> names(int branch) throws IOException {
    List<String> out = new ArrayList<>();
    for (Row r : rows()) {
      if (r.covers(branch)) {
        out.add(r.name().replace("{branch}", Integer.toString(branch)));
      }
    }
    return out;
  }

  /**
   * The Fabric Manager and NSCQ packages of a branch at each of {@code versions} (Debian versions
   * such as 580.95.05-1), as the repository holds them.
   */
  static List<AptRepositoryStandIn.Deb> debs(int branch, List<String> versions) throws IOException {
    List<AptRepositoryStandIn.Deb> out = new ArrayList<>();
    for (Row r : rows()) {
      if (!r.covers(branch)) {
        continue;
      }
      String b = Integer.toString(branch);
      for (String v : versions) {
        out.add(
            new AptRepositoryStandIn.Deb(
                r.name().replace("{branch}", b),
                v,
                "amd64",
                "",
                Map.of(),
                r.provides().replace("{branch}", b)));
      }
    }
    return out;
  }
}
