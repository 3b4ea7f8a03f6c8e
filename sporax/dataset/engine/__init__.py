"""The dataset engine: graph, sources, samplers, iterators."""

from .datasets import *
from .iterators import DictIterator, TupleIterator
from .samplers import *
from .schema import Schema
from .sources import *
from .datasets_user_defined import *
from .minddataset import *
from .datasets_standard_format import *
from .datasets_text import *
from .datasets_vision import *
from .datasets_image_corpora import *
from .datasets_image_folders import *
from .datasets_detection import *
from .datasets_text_translation import *
from .datasets_audio_corpora import *
from .datasets_audio import CMUArcticDataset, LJSpeechDataset, SpeechCommandsDataset, YesNoDataset
from ._cache import DatasetCache
from ._callbacks import DSCallback
from ._obs_sync import sync_wait_for_dataset
from ._serialize import compare, deserialize, serialize, show
