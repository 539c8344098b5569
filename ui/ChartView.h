// How a user moves around a chart of the timings panel: wheel zoom and drag
// stay within the chart's home ranges (time and iterations never go below
// zero, zooming out stops at the whole run), a double-click or the panel's
// reset goes home, and the playback iteration is marked.
#pragma once

#include <qcustomplot.h>

namespace rgx::ui {

// The ranges the chart was drawn with: where reset goes, and what zoom and
// drag may not leave. valueCeiling: how far up the value axis may be zoomed
// out (above the home range where tall bars were cut), 0 for the home top.
void setHomeRanges(QCustomPlot* plot, const QCPRange& keys, const QCPRange& values, double valueCeiling = 0);
// Shows the home ranges; false when the chart has none yet.
bool resetToHome(QCustomPlot* plot);
// Connects the limits and double-click reset once per chart.
void keepWithinHome(QCustomPlot* plot);

// A vertical line at a key (the playback iteration) with a label; hidden
// for a negative key.
void markKey(QCustomPlot* plot, double key, const QString& label);

} // namespace rgx::ui
