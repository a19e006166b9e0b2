package dev.gpugen.cli;

import dev.gpugen.failure.InvalidInput;
import dev.gpugen.report.Fleet;
import dev.gpugen.report.HostReport;
import dev.gpugen.report.ReportFolder;
import dev.gpugen.spec.Printable;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code gpugen report FOLDER}: play 05's reports drawn as one page and a JUnit file, beside them.
 */
@Command(
    modelTransformer = VerboseOption.Added.class,
    name = "report",
    sortOptions = false,
    mixinStandardHelpOptions = true,
    description = {
      "Draw play 05's validation reports (reports/<host>.json) as one self-contained page,"
          + " reports/index.html (per pool: bus bandwidth per node against the threshold and the"
          + " median, outliers marked; every host and check, the reason on hover; the versions"
          + " each node reported), and as JUnit XML, reports/validation-junit.xml.",
      "Reads FOLDER/ansible/reports (FOLDER: the render folder) or FOLDER/reports, or the folder"
          + " --reports names; writes only those two files there."
    },
    footer = {
      "",
      "Exit codes: 0 written (whatever the nodes' results: they are in the files), 1 a report"
          + " that is not play 05's, 2 usage, 3 no reports to read (no reports folder, or none"
          + " in it) or a file that cannot be read or written, 4 internal."
    })
final class ReportCommand implements Callable<Integer> {
  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  @Parameters(
      index = "0",
      arity = "0..1",
      paramLabel = "FOLDER",
      description = "The render folder (roles-generated/<name>), or its ansible/ folder.")
  Path folder;

  @Option(
      names = "--reports",
      paramLabel = "DIR",
      description = "The reports folder itself (play 05's validation_report_dir).")
  Path reports;

  @Override
  public Integer call() {
    if ((folder == null) == (reports == null)) {
      throw InvalidInput.usage("report: name the render FOLDER or --reports DIR (one of them)");
    }
    Path dir = reports != null ? reports : ReportFolder.of(folder);
    List<HostReport> read = ReportFolder.read(dir);
    Fleet fleet = Fleet.of(read);
    ReportFolder.Written written = ReportFolder.write(dir, fleet);
    PrintWriter out = spec.commandLine().getOut();
    out.println(
        "report: "
            + fleet.hosts()
            + " nodes in "
            + fleet.pools().size()
            + (fleet.pools().size() == 1 ? " pool: " : " pools: ")
            + (fleet.hosts() - fleet.failed())
            + " passed, "
            + fleet.failed()
            + " failed, "
            + fleet.outliers()
            + (fleet.outliers() == 1 ? " outlier" : " outliers"));
    // Host names and pools come from the nodes: printed escaped, so none can forge a line.
    for (Fleet.Pool pool : fleet.pools()) {
      for (HostReport h : pool.hosts()) {
        if (!h.passed() || h.outlier()) {
          out.println(
              "  "
                  + (h.passed() ? "outlier" : "FAILED ")
                  + " "
                  + Printable.text(h.host())
                  + " (pool "
                  + (pool.name().isEmpty() ? "-" : Printable.text(pool.name()))
                  + ")");
        }
      }
    }
    out.println("wrote " + Printable.text(written.page().toString()));
    out.println("wrote " + Printable.text(written.junit().toString()));
    out.flush();
    return ExitCodes.OK;
  }
}
