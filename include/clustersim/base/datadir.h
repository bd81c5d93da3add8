/* datadir.h: where clustersim's own data lives (the catalog, the plot
 * templates, the validation tables). The directory has the source tree's
 * layout (scenarios/catalog/, plots/, validation/), so a build tree and an
 * installed copy (PREFIX/share/clustersim) are read the same way. */
#ifndef CLUSTERSIM_DATADIR_H
#define CLUSTERSIM_DATADIR_H

/* The data directory, in this order: $CLUSTERSIM_DATA when set and not
 * empty; in libclustersim.so, PREFIX/share/clustersim one to four folders
 * above the library (the Python package's copy, PREFIX/lib/python3.X/
 * dist-packages/clustersim/libclustersim.so); PREFIX/share/clustersim
 * beside the running binary (PREFIX/bin);
 * the source tree the binary was built from, while it exists; the
 * compiled-in install directory. Returns a pointer to a process-lifetime
 * string; never NULL (the last choice is returned even if it is missing, so
 * that the error that follows names it). Thread-safe. */
const char *cs_data_dir(void);

/* cs_data_dir() + "/scenarios/catalog" and + "/plots"; process-lifetime. */
const char *cs_data_catalog_dir(void);
const char *cs_data_plots_dir(void);

/* cs_data_dir() joined with `rel` ("validation/step"); caller frees. */
char *cs_data_path(const char *rel);

/* Which rule chose the directory: "CLUSTERSIM_DATA", "installed",
 * "source tree" or "compiled-in"; for `clustersim --version`. */
const char *cs_data_dir_origin(void);

/* The compiled-in install directory (CMAKE_INSTALL_FULL_DATADIR/clustersim),
 * the last choice of cs_data_dir(); for the man page. */
const char *cs_data_dir_compiled(void);

#endif
