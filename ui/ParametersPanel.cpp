// Parameters panel: widgets <-> rgx::PipelineParams.
#include "ParametersPanel.h"

#include "ParameterCodec.h"
#include "stages/StageVariants.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QSpinBox>
#include <QVBoxLayout>
#include <algorithm>
#include <limits>
#include <utility>

namespace rgx::ui {

namespace {

// The stage's variants as the engine lists them; "" is the stage's default.
void fillVariants(QComboBox* combo, const std::string& stage)
{
    combo->clear();
    QString defaultName;
    for (const StageVariantInfo& variant : stageVariants())
        if (variant.stage == stage && variant.isDefault)
            defaultName = QString::fromStdString(variant.name);
    combo->addItem(QStringLiteral("(default: %1)").arg(defaultName), QString());
    for (const StageVariantInfo& variant : stageVariants()) {
        if (variant.stage != stage)
            continue;
        QString label = QString::fromStdString(variant.name);
        if (variant.wrongOnPurpose)
            label += QStringLiteral(" (wrong on purpose)");
        combo->addItem(label, QString::fromStdString(variant.name));
        combo->setItemData(combo->count() - 1, QString::fromStdString(variant.description), Qt::ToolTipRole);
    }
}

// Shows a number in its shortest form ("45", "45.125") and keeps eight
// decimals, enough for every step of the adaptive threshold (1/256,
// SPEC.md), so that a tolerance from a file or the command line is run as given.
class ExactSpinBox : public QDoubleSpinBox {
public:
    using QDoubleSpinBox::QDoubleSpinBox;

protected:
    QString textFromValue(double value) const override
    {
        return locale().toString(value, 'g', QLocale::FloatingPointShortest);
    }
};

void selectData(QComboBox* combo, const QVariant& data)
{
    const int index = combo->findData(data);
    combo->setCurrentIndex(index >= 0 ? index : 0);
}

} // namespace

ParametersPanel::ParametersPanel(QWidget* parent) : QWidget(parent)
{
    setObjectName(QStringLiteral("parametersPanel"));
    auto* layout = new QVBoxLayout(this);

    auto* growBox = new QGroupBox(QStringLiteral("Region growing"), this);
    auto* grow = new QFormLayout(growBox);
    mode_ = new QComboBox(growBox);
    mode_->setObjectName(QStringLiteral("modeCombo"));
    mode_->addItem(QStringLiteral("competitive"), int(Mode::Competitive));
    mode_->addItem(QStringLiteral("adaptive"), int(Mode::Adaptive));
    mode_->addItem(QStringLiteral("range"), int(Mode::Range));
    mode_->setItemData(0, QStringLiteral("Each candidate joins the nearest eligible region (by mean)"), Qt::ToolTipRole);
    mode_->setItemData(1, QStringLiteral("As competitive, but only within the tolerance of the region's mean"), Qt::ToolTipRole);
    mode_->setItemData(2, QStringLiteral("A fixed luma range around each seed's value (flood fill)"), Qt::ToolTipRole);
    grow->addRow(QStringLiteral("Mode"), mode_);

    tolerance_ = new ExactSpinBox(growBox);
    tolerance_->setObjectName(QStringLiteral("toleranceSpin"));
    const ParameterField& tolerance = parameterField("--tolerance");
    tolerance_->setRange(tolerance.minimum, tolerance.maximum);
    tolerance_->setDecimals(8);
    tolerance_->setValue(20.0);
    tolerance_->setToolTip(QStringLiteral("Adaptive mode: accept a pixel when |luma - region mean| <= tolerance"));
    grow->addRow(QStringLiteral("Tolerance"), tolerance_);

    auto* rangeRow = new QWidget(growBox);
    auto* range = new QHBoxLayout(rangeRow);
    range->setContentsMargins(0, 0, 0, 0);
    lower_ = new QSpinBox(rangeRow);
    lower_->setObjectName(QStringLiteral("lowerSpin"));
    upper_ = new QSpinBox(rangeRow);
    upper_->setObjectName(QStringLiteral("upperSpin"));
    for (QSpinBox* spin : {lower_, upper_}) {
        const ParameterField& field = parameterField(spin == lower_ ? "--lower" : "--upper");
        spin->setRange(int(field.minimum), int(field.maximum));
        spin->setValue(20);
    }
    lower_->setPrefix(QStringLiteral("- "));
    upper_->setPrefix(QStringLiteral("+ "));
    lower_->setToolTip(QStringLiteral("Range mode: accept luma >= seed luma - lower"));
    upper_->setToolTip(QStringLiteral("Range mode: accept luma <= seed luma + upper"));
    range->addWidget(lower_);
    range->addWidget(upper_);
    grow->addRow(QStringLiteral("Range"), rangeRow);

    rule_ = new QComboBox(growBox);
    rule_->setObjectName(QStringLiteral("ruleCombo"));
    rule_->addItem(QStringLiteral("adjacent"), int(Rule::Adjacent));
    rule_->addItem(QStringLiteral("all"), int(Rule::All));
    rule_->setItemData(0, QStringLiteral("Only regions next to the pixel compete (Adams and Bischof)"), Qt::ToolTipRole);
    rule_->setItemData(1, QStringLiteral("Every region competes, as in the AMD OpenCL 2.0 sample"), Qt::ToolTipRole);
    grow->addRow(QStringLiteral("Rule"), rule_);

    connectivity_ = new QComboBox(growBox);
    connectivity_->setObjectName(QStringLiteral("connectivityCombo"));
    fillConnectivities();
    grow->addRow(QStringLiteral("Connectivity"), connectivity_);

    iterationCap_ = new QSpinBox(growBox);
    iterationCap_->setObjectName(QStringLiteral("iterationCapSpin"));
    // The table's cap, as far as a spin box's int reaches (a cap above the
    // pixel count changes nothing: GrowParams::iterationCap).
    const ParameterField& cap = parameterField("--max-iterations");
    iterationCap_->setRange(int(cap.minimum), int(std::min<double>(cap.maximum, std::numeric_limits<int>::max())));
    iterationCap_->setSpecialValueText(QStringLiteral("no cap"));
    iterationCap_->setToolTip(QStringLiteral("Stop after this many iterations (a broken variant may never stop by itself)"));
    grow->addRow(QStringLiteral("Iteration cap"), iterationCap_);
    layout->addWidget(growBox);

    auto* filterBox = new QGroupBox(QStringLiteral("Filters"), this);
    filters_ = filterBox;
    auto* filters = new QFormLayout(filterBox);
    auto* prefilterRow = new QWidget(filterBox);
    auto* prefilterLayout = new QHBoxLayout(prefilterRow);
    prefilterLayout->setContentsMargins(0, 0, 0, 0);
    prefilter_ = new QComboBox(prefilterRow);
    prefilter_->setObjectName(QStringLiteral("prefilterCombo"));
    prefilter_->addItem(QStringLiteral("none"), int(PrefilterSpec::Kind::None));
    prefilter_->addItem(QStringLiteral("box mean"), int(PrefilterSpec::Kind::BoxMean));
    prefilter_->addItem(QStringLiteral("gaussian"), int(PrefilterSpec::Kind::Gaussian));
    prefilterSize_ = new QSpinBox(prefilterRow);
    prefilterSize_->setObjectName(QStringLiteral("prefilterSizeSpin"));
    prefilterSize_->setRange(1, 255);
    prefilterSize_->setValue(5);
    prefilterSize_->setToolTip(QStringLiteral("Box mean: window width W; gaussian: radius R"));
    prefilterLayout->addWidget(prefilter_, 1);
    prefilterLayout->addWidget(prefilterSize_);
    filters->addRow(QStringLiteral("Prefilter"), prefilterRow);
    prefilterVariant_ = new QComboBox(filterBox);
    prefilterVariant_->setObjectName(QStringLiteral("prefilterVariantCombo"));
    filters->addRow(QStringLiteral("Prefilter variant"), prefilterVariant_);

    auto* postfilterRow = new QWidget(filterBox);
    auto* postfilterLayout = new QHBoxLayout(postfilterRow);
    postfilterLayout->setContentsMargins(0, 0, 0, 0);
    postfilter_ = new QCheckBox(QStringLiteral("density"), postfilterRow);
    postfilter_->setObjectName(QStringLiteral("postfilterCheck"));
    postfilter_->setToolTip(QStringLiteral("Unclassify pixels whose W x W window holds fewer than MIN pixels of their region"));
    postfilterWindow_ = new QSpinBox(postfilterRow);
    postfilterWindow_->setObjectName(QStringLiteral("postfilterWindowSpin"));
    postfilterWindow_->setRange(1, 255);
    postfilterWindow_->setValue(5);
    postfilterWindow_->setPrefix(QStringLiteral("W "));
    postfilterMinimum_ = new QSpinBox(postfilterRow);
    postfilterMinimum_->setObjectName(QStringLiteral("postfilterMinimumSpin"));
    postfilterMinimum_->setRange(0, 65025);
    postfilterMinimum_->setValue(10);
    postfilterMinimum_->setPrefix(QStringLiteral("min "));
    postfilterLayout->addWidget(postfilter_);
    postfilterLayout->addWidget(postfilterWindow_);
    postfilterLayout->addWidget(postfilterMinimum_);
    filters->addRow(QStringLiteral("Postfilter"), postfilterRow);
    postfilterVariant_ = new QComboBox(filterBox);
    postfilterVariant_->setObjectName(QStringLiteral("postfilterVariantCombo"));
    fillVariants(postfilterVariant_, "density");
    filters->addRow(QStringLiteral("Postfilter variant"), postfilterVariant_);
    layout->addWidget(filterBox);

    auto* runBox = new QGroupBox(QStringLiteral("Running"), this);
    auto* running = new QFormLayout(runBox);
    timeout_ = new QDoubleSpinBox(runBox);
    timeout_->setObjectName(QStringLiteral("timeoutSpin"));
    timeout_->setRange(1.0, 3600.0);
    timeout_->setValue(120.0);
    timeout_->setSuffix(QStringLiteral(" s"));
    timeout_->setToolTip(QStringLiteral("A run that takes longer is stopped with a message"));
    running->addRow(QStringLiteral("Timeout"), timeout_);
    autoRun_ = new QCheckBox(QStringLiteral("Live: run on every seed or parameter edit"), runBox);
    autoRun_->setToolTip(QStringLiteral("On by itself while a run of this image takes under 100 ms, "
                                        "until you choose here or in the Run menu."));
    autoRun_->setObjectName(QStringLiteral("autoRunCheck"));
    running->addRow(autoRun_);
    layout->addWidget(runBox);
    layout->addStretch(1);

    fillPrefilterVariants();
    updateEnabled();

    shown_ = params();
    auto notify = [this] {
        if (!updating_) {
            updateEnabled();
            const PipelineParams now = params();
            const PipelineParams before = std::exchange(shown_, now);
            if (!sameParameters(before, now))
                emit edited(before, now);
            emit changed();
        }
    };
    connect(prefilter_, qOverload<int>(&QComboBox::currentIndexChanged), this, [this, notify] {
        if (!updating_)
            fillPrefilterVariants();
        notify();
    });
    for (QComboBox* combo : {mode_, rule_, connectivity_, prefilterVariant_, postfilterVariant_})
        connect(combo, qOverload<int>(&QComboBox::currentIndexChanged), this, notify);
    for (QSpinBox* spin : {lower_, upper_, prefilterSize_, postfilterWindow_, postfilterMinimum_, iterationCap_})
        connect(spin, qOverload<int>(&QSpinBox::valueChanged), this, notify);
    connect(tolerance_, qOverload<double>(&QDoubleSpinBox::valueChanged), this, notify);
    connect(timeout_, qOverload<double>(&QDoubleSpinBox::valueChanged), this, notify);
    connect(postfilter_, &QCheckBox::toggled, this, notify);
    connect(autoRun_, &QCheckBox::toggled, this, &ParametersPanel::autoRunChanged);
    connect(autoRun_, &QCheckBox::clicked, this, &ParametersPanel::autoRunChosen);
}

void ParametersPanel::fillPrefilterVariants()
{
    const auto kind = PrefilterSpec::Kind(prefilter_->currentData().toInt());
    const QVariant previous = prefilterVariant_->currentData();
    const bool wasUpdating = updating_;
    updating_ = true;
    // The limits that keep the filters' integer sums exact (Pipeline.h).
    if (kind == PrefilterSpec::Kind::BoxMean) {
        fillVariants(prefilterVariant_, "boxmean");
        prefilterSize_->setRange(1, maxBoxMeanWindow);
    } else if (kind == PrefilterSpec::Kind::Gaussian) {
        fillVariants(prefilterVariant_, "gaussian");
        prefilterSize_->setRange(1, maxGaussianRadius);
    } else {
        prefilterVariant_->clear();
        prefilterVariant_->addItem(QStringLiteral("(no prefilter)"), QString());
    }
    selectData(prefilterVariant_, previous);
    updating_ = wasUpdating;
}

void ParametersPanel::fillConnectivities()
{
    connectivity_->clear();
    if (volume_) {
        connectivity_->addItem(QStringLiteral("6 neighbours (faces)"), 6);
        connectivity_->addItem(QStringLiteral("18 neighbours (faces, edges)"), 18);
        connectivity_->addItem(QStringLiteral("26 neighbours (faces, edges, corners)"), 26);
    } else {
        connectivity_->addItem(QStringLiteral("4 neighbours"), 4);
        connectivity_->addItem(QStringLiteral("8 neighbours"), 8);
    }
}

int ParametersPanel::offeredConnectivity(int connectivity) const
{
    if (volume_)
        return connectivity == 4 ? 6 : connectivity == 8 ? 26 : connectivity;
    return connectivity == 6 ? 4 : (connectivity == 18 || connectivity == 26) ? 8 : connectivity;
}

void ParametersPanel::setVolume(bool volume)
{
    if (volume == volume_)
        return;
    const int chosen = connectivity_->currentData().toInt();
    updating_ = true;
    volume_ = volume;
    fillConnectivities();
    selectData(connectivity_, offeredConnectivity(chosen));
    filters_->setEnabled(!volume_);
    filters_->setToolTip(volume_ ? QStringLiteral("The filters work on 2D images: a volume runs without them.")
                                 : QString());
    updating_ = false;
    shown_ = params();
    emit changed();
}

void ParametersPanel::updateEnabled()
{
    const Mode mode = Mode(mode_->currentData().toInt());
    tolerance_->setEnabled(mode == Mode::Adaptive);
    lower_->setEnabled(mode == Mode::Range);
    upper_->setEnabled(mode == Mode::Range);
    const bool prefilter = PrefilterSpec::Kind(prefilter_->currentData().toInt()) != PrefilterSpec::Kind::None;
    prefilterSize_->setEnabled(prefilter);
    prefilterVariant_->setEnabled(prefilter);
    postfilterWindow_->setEnabled(postfilter_->isChecked());
    postfilterMinimum_->setEnabled(postfilter_->isChecked());
    postfilterVariant_->setEnabled(postfilter_->isChecked());
}

PipelineParams ParametersPanel::params() const
{
    PipelineParams params;
    params.grow.mode = Mode(mode_->currentData().toInt());
    params.grow.tolerance = tolerance_->value();
    params.grow.lower = uint32_t(lower_->value());
    params.grow.upper = uint32_t(upper_->value());
    params.grow.rule = Rule(rule_->currentData().toInt());
    params.grow.connectivity = connectivity_->currentData().toInt();
    params.grow.maxIterations = uint32_t(iterationCap_->value());
    if (volume_)
        return params; // no filters: they are 2D
    params.prefilter.kind = PrefilterSpec::Kind(prefilter_->currentData().toInt());
    if (params.prefilter.kind != PrefilterSpec::Kind::None) {
        params.prefilter.size = prefilterSize_->value();
        params.prefilter.variant = prefilterVariant_->currentData().toString().toStdString();
    }
    params.postfilter.enabled = postfilter_->isChecked();
    if (params.postfilter.enabled) {
        params.postfilter.window = postfilterWindow_->value();
        params.postfilter.minimum = postfilterMinimum_->value();
        params.postfilter.variant = postfilterVariant_->currentData().toString().toStdString();
    }
    return params;
}

void ParametersPanel::setParams(const PipelineParams& params)
{
    updating_ = true;
    selectData(mode_, int(params.grow.mode));
    tolerance_->setValue(params.grow.tolerance);
    lower_->setValue(int(params.grow.lower));
    upper_->setValue(int(params.grow.upper));
    selectData(rule_, int(params.grow.rule));
    selectData(connectivity_, offeredConnectivity(params.grow.connectivity));
    iterationCap_->setValue(int(std::min<uint32_t>(params.grow.maxIterations, uint32_t(iterationCap_->maximum()))));
    selectData(prefilter_, int(params.prefilter.kind));
    fillPrefilterVariants();
    if (params.prefilter.kind != PrefilterSpec::Kind::None)
        prefilterSize_->setValue(params.prefilter.size);
    selectData(prefilterVariant_, QString::fromStdString(params.prefilter.variant));
    postfilter_->setChecked(params.postfilter.enabled);
    if (params.postfilter.enabled) {
        postfilterWindow_->setValue(params.postfilter.window);
        postfilterMinimum_->setValue(params.postfilter.minimum);
    }
    selectData(postfilterVariant_, QString::fromStdString(params.postfilter.variant));
    updating_ = false;
    updateEnabled();
    shown_ = this->params();
    emit changed();
}

double ParametersPanel::timeoutSeconds() const { return timeout_->value(); }
void ParametersPanel::setTimeoutSeconds(double seconds) { timeout_->setValue(seconds); }
bool ParametersPanel::autoRun() const { return autoRun_->isChecked(); }
void ParametersPanel::setAutoRun(bool on) { autoRun_->setChecked(on); }

} // namespace rgx::ui
